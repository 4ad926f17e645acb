# Tree-sitter grammars pinned by grammars/package.json + package-lock.json.
# Configure installs them with `npm ci --ignore-scripts` when node_modules is missing.
set(SC_GRAMMAR_DIR "${CMAKE_SOURCE_DIR}/grammars")
set(SC_NM "${SC_GRAMMAR_DIR}/node_modules")
set(SC_GRAMMARS tree-sitter-python tree-sitter-bash tree-sitter-json)

set(_missing FALSE)
foreach(g ${SC_GRAMMARS})
  if(NOT EXISTS "${SC_NM}/${g}/src/parser.c")
    set(_missing TRUE)
  endif()
endforeach()
if(_missing)
  find_program(NPM_EXECUTABLE npm)
  if(NOT NPM_EXECUTABLE)
    message(FATAL_ERROR "The pinned tree-sitter grammars are missing from ${SC_NM} and npm was not found.\n"
                        "Install Node.js/npm (Debian: apt-get install npm), then run:\n"
                        "  (cd grammars && npm ci --ignore-scripts)")
  endif()
  message(STATUS "Installing pinned grammars: npm ci --ignore-scripts in ${SC_GRAMMAR_DIR}")
  execute_process(COMMAND ${NPM_EXECUTABLE} ci --ignore-scripts --no-audit --no-fund
                  WORKING_DIRECTORY ${SC_GRAMMAR_DIR} RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "`npm ci --ignore-scripts` failed in ${SC_GRAMMAR_DIR} (exit ${_rc}). "
                        "Check access to the npm registry, then re-run cmake.")
  endif()
endif()

set(_ts_srcs)
foreach(g ${SC_GRAMMARS})
  file(GLOB _g_srcs "${SC_NM}/${g}/src/parser.c" "${SC_NM}/${g}/src/scanner.c")
  # each grammar must see its own src/tree_sitter/parser.h, never the system one
  set_source_files_properties(${_g_srcs} PROPERTIES INCLUDE_DIRECTORIES "${SC_NM}/${g}/src" COMPILE_OPTIONS "-w")
  list(APPEND _ts_srcs ${_g_srcs})
endforeach()
add_library(ts_grammars STATIC ${_ts_srcs})
set_target_properties(ts_grammars PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
# grammars are hot code even in debug builds
target_compile_options(ts_grammars PRIVATE -O2)
target_link_libraries(ts_grammars PUBLIC PkgConfig::TREESITTER)
