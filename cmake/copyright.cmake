# Writes deb/copyright: sparkcheck's own notice and, for a static build, the Debian
# copyright files of the libraries linked into the binary (from the arm64 root in a
# cross build).
set(sc_doc /usr/share/doc)
if(SPARKCHECK_ARM64_ROOT AND CMAKE_CROSSCOMPILING)
  set(sc_doc "${SPARKCHECK_ARM64_ROOT}/usr/share/doc")
endif()
set(text "sparkcheck
Upstream: ${PROJECT_HOMEPAGE_URL}

Files: *
Copyright: 2026 the sparkcheck authors (see the git history)
License: Apache-2.0
 On Debian systems the full text of the Apache License, Version 2.0 is in
 /usr/share/common-licenses/Apache-2.0; it is also the LICENSE file of the source.
")
if(SPARKCHECK_STATIC)
  string(APPEND text "
This binary is statically linked with the libraries below. Their copyright
notices and licenses, as Debian ships them, follow.
")
  foreach(pkg libyaml-cpp-dev libre2-dev libtree-sitter-dev libcmark-dev libsodium-dev libtomlplusplus-dev
              nlohmann-json3-dev libcli11-dev)
    set(f "${sc_doc}/${pkg}/copyright")
    if(NOT EXISTS "${f}")
      set(f "/usr/share/doc/${pkg}/copyright")
    endif()
    if(EXISTS "${f}")
      file(READ "${f}" body)
      string(APPEND text "\n==== ${pkg} ====\n${body}")
    endif()
  endforeach()
  string(APPEND text "\n==== libstdc++, libgcc (GCC runtime library exception) ====\n")
  if(EXISTS /usr/share/doc/libstdc++-12-dev/copyright)
    file(READ /usr/share/doc/libstdc++-12-dev/copyright body)
    string(APPEND text "${body}")
  endif()
endif()
file(WRITE ${CMAKE_BINARY_DIR}/deb/copyright "${text}")
