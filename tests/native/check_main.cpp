#include <cstring>
#include <exception>

#include "check.h"

int main(int argc, char** argv) {
  int failed = 0, ran = 0;
  for (const auto& t : check::registry()) {
    bool selected = argc == 1;
    for (int i = 1; i < argc; ++i) selected = selected || std::strcmp(argv[i], t.name) == 0;
    if (!selected) continue;
    ++ran;
    try {
      t.fn();
      std::cout << "[ OK ] " << t.name << "\n";
    } catch (const check::Failure& f) {
      ++failed;
      std::cout << "[FAIL] " << t.name << ": " << f.message << "\n";
    } catch (const std::exception& e) {
      ++failed;
      std::cout << "[FAIL] " << t.name << ": unexpected exception: " << e.what() << "\n";
    }
  }
  std::cout << ran - failed << "/" << ran << " passed\n";
  if (ran == 0) {
    std::cout << "no test matched\n";
    return 1;
  }
  return failed == 0 ? 0 : 1;
}
