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
if(EXISTS ${CMAKE_SOURCE_DIR}/LICENSE)
  install(FILES ${CMAKE_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT sparkcheck)
endif()
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT sparkcheck FILES_MATCHING PATTERN "*.md" PATTERN "*.yml" PATTERN "*.yaml"
        PATTERN "CONTRIBUTING.md" EXCLUDE)
# The pre-commit manifest, for people who point a local hook at the installed copy.
install(FILES ${CMAKE_SOURCE_DIR}/.pre-commit-hooks.yaml DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples
        COMPONENT sparkcheck RENAME pre-commit-hooks.yaml)

# ---- CPack: .deb --------------------------------------------------------------
set(CPACK_PACKAGE_NAME "sparkcheck")
set(CPACK_PACKAGE_VENDOR "sparkcheck")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "sparkcheck lints ML-training projects (Dockerfiles, requirements, pyproject, launch scripts,
training configs) for the ten known DGX Spark (GB10) failure modes, and probes the live machine.")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_PACKAGE_CONTACT "sparkcheck maintainers <sparkcheck@users.noreply.github.com>")
set(CPACK_GENERATOR "DEB")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
# Runtime libraries (yaml-cpp, re2, tree-sitter...) found by dpkg-shlibdeps (dpkg-dev).
find_program(SC_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(SC_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
endif()
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_IGNORE_FILES "/build[^/]*/" "/\\\\.git/" "/node_modules/")
include(CPack)
