"""What flows through a graph, below the spec language: the dtype table, graph values,
the inputs spec cases describe, and the error a rejected call raises (the runtime's text)."""
