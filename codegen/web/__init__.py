"""The browser: the web model format, the site `opgen web` writes and the page driver."""
