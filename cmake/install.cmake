# Installation (`cmake --install BUILD --prefix PREFIX`) and a Debian package
# (`cpack -G DEB` in the build directory, or `cmake --build BUILD --target package`).
# Installs the binary, the README, and the docs (including the generated
# docs/rules pages); nothing else.
include(GNUInstallDirs)
# `make install` / cpack package what is built; they do not rebuild every target
# (unit tests, fuzzers) first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY TRUE)

install(TARGETS sparkcheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT sparkcheck)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT sparkcheck)
# The licence (Apache-2.0) goes into doc/sparkcheck/copyright (cmake/copyright.cmake), as
# Debian policy asks, not as a separate LICENSE file.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT sparkcheck FILES_MATCHING PATTERN "*.md" PATTERN "*.yml" PATTERN "*.yaml"
        PATTERN "CONTRIBUTING.md" EXCLUDE)
# The pre-commit manifest, for people who point a local hook at the installed copy.
install(FILES ${CMAKE_SOURCE_DIR}/.pre-commit-hooks.yaml DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples
        COMPONENT sparkcheck RENAME pre-commit-hooks.yaml)

# ---- man page, changelog, copyright (Debian policy; lintian checks them) -------
set(SC_RUN_EMULATOR "")
if(CMAKE_CROSSCOMPILING_EMULATOR)
  string(REPLACE ";" "\\;" SC_RUN_EMULATOR "${CMAKE_CROSSCOMPILING_EMULATOR}")
endif()
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/sparkcheck.1.gz
  COMMAND ${CMAKE_COMMAND} "-DBIN=$<TARGET_FILE:sparkcheck>" "-DEMU=${SC_RUN_EMULATOR}"
          "-DVERSION=${SC_VERSION}" "-DOUT=${CMAKE_BINARY_DIR}/sparkcheck.1.gz"
          -P ${CMAKE_SOURCE_DIR}/cmake/manpage.cmake
  DEPENDS sparkcheck ${CMAKE_SOURCE_DIR}/cmake/manpage.cmake
  COMMENT "Writing the man page sparkcheck(1) from --help" VERBATIM)
add_custom_target(sparkcheck_man ALL DEPENDS ${CMAKE_BINARY_DIR}/sparkcheck.1.gz)
install(FILES ${CMAKE_BINARY_DIR}/sparkcheck.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        COMPONENT sparkcheck OPTIONAL)
# changelog.gz in Debian's format (a native package), pointing at CHANGELOG.md (gzip -9n: no timestamp).
string(TIMESTAMP sc_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${CMAKE_BINARY_DIR}/deb/changelog "sparkcheck (${SC_VERSION}) unstable; urgency=medium

  * sparkcheck ${SC_VERSION}.
    Its changes are listed in /usr/share/doc/sparkcheck/CHANGELOG.md.

 -- sparkcheck maintainers <sparkcheck@users.noreply.github.com>  ${sc_date}
")
execute_process(COMMAND gzip -9nf ${CMAKE_BINARY_DIR}/deb/changelog)
install(FILES ${CMAKE_BINARY_DIR}/deb/changelog.gz ${CMAKE_SOURCE_DIR}/CHANGELOG.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT sparkcheck)
# copyright: sparkcheck's notice plus those of the libraries linked into the binary.
include(${CMAKE_SOURCE_DIR}/cmake/copyright.cmake)
install(FILES ${CMAKE_BINARY_DIR}/deb/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT sparkcheck)

# ---- CPack: .deb --------------------------------------------------------------
set(CPACK_PACKAGE_NAME "sparkcheck")
set(CPACK_PACKAGE_VENDOR "sparkcheck")
set(CPACK_PACKAGE_VERSION "${SC_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "sparkcheck lints ML-training projects (Dockerfiles, requirements, pyproject,
launch scripts, training configs) for known DGX Spark (GB10) failure modes,
and probes the live machine.")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_PACKAGE_CONTACT "sparkcheck maintainers <sparkcheck@users.noreply.github.com>")
set(CPACK_GENERATOR "DEB")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
if(CMAKE_CROSSCOMPILING AND CMAKE_SYSTEM_PROCESSOR MATCHES "aarch64|arm64")
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
endif()
if(SPARKCHECK_STATIC)
  # Only glibc is dynamic: Depends is libc6 from the newest GLIBC_ symbol version the
  # built binary needs, measured at package time (cmake/cpack-project.cmake).
  set(CPACK_SC_OBJDUMP "${CMAKE_OBJDUMP}")
  set(CPACK_SC_BINARY "${CMAKE_BINARY_DIR}/sparkcheck")
  set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_SOURCE_DIR}/cmake/cpack-project.cmake)
else()
  # Runtime libraries (yaml-cpp, re2, tree-sitter...) found by dpkg-shlibdeps (dpkg-dev).
  find_program(SC_DPKG_SHLIBDEPS dpkg-shlibdeps)
  if(SC_DPKG_SHLIBDEPS)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  endif()
endif()
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_IGNORE_FILES "/build[^/]*/" "/\\\\.git/" "/node_modules/")
include(CPack)
