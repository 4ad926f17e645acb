# SC_VERSION: the version `sparkcheck --version` prints, read at configure time.
#   on a tag vX.Y.Z          -> X.Y.Z
#   after a tag              -> X.Y.Z+N.gCOMMIT (git describe's N commits since the tag;
#                               build metadata, valid SemVer and PEP 440, not a pre-release)
#   in a checkout, no tag    -> PROJECT_VERSION+gCOMMIT
#   not a git checkout       -> PROJECT_VERSION (source tarball, sdist)
# SPARKCHECK_VERSION_OVERRIDE wins over all of them (release scripts, distro builds).
set(SPARKCHECK_VERSION_OVERRIDE "" CACHE STRING "Version string to build in instead of git describe")
set(SC_VERSION "${PROJECT_VERSION}")
find_package(Git QUIET)
if(SPARKCHECK_VERSION_OVERRIDE)
  set(SC_VERSION "${SPARKCHECK_VERSION_OVERRIDE}")
elseif(GIT_FOUND AND EXISTS "${CMAKE_SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" describe --tags --match "v[0-9]*" --abbrev=9
                  WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}" OUTPUT_VARIABLE sc_describe
                  RESULT_VARIABLE sc_rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(sc_rc EQUAL 0 AND sc_describe MATCHES "^v([0-9][^-]*)-([0-9]+)-(g[0-9a-f]+)$")
    set(SC_VERSION "${CMAKE_MATCH_1}+${CMAKE_MATCH_2}.${CMAKE_MATCH_3}")
  elseif(sc_rc EQUAL 0 AND sc_describe MATCHES "^v([0-9].*)$")
    set(SC_VERSION "${CMAKE_MATCH_1}")
  else()
    execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --short=9 HEAD
                    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}" OUTPUT_VARIABLE sc_commit
                    RESULT_VARIABLE sc_rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(sc_rc EQUAL 0 AND sc_commit)
      set(SC_VERSION "${PROJECT_VERSION}+g${sc_commit}")
    endif()
  endif()
endif()
message(STATUS "sparkcheck version: ${SC_VERSION}")
if(CMAKE_BINARY_DIR AND NOT CMAKE_SCRIPT_MODE_FILE)
  file(WRITE "${CMAKE_BINARY_DIR}/VERSION" "${SC_VERSION}\n")   # for scripts/dist.sh
endif()
