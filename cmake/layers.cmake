# The engine's layers, one CMake target each, in one direction of dependency:
#   core <- parsers <- analysis <- knowledge <- rules <- engine <- output, config <- probe, server, cluster <- cli
# A layer sees only its own headers and those of the layers it depends on: each
# target's include path is a folder of links to exactly those source folders, so
# `#include "rules/..."` from a parser does not compile. tests/layers check the same
# from the sources (no `..` includes, no upward include).
set(SC_LAYERS "")

# sc_layer(NAME DIRS <source dirs> DEPS <lower layers> [LIBS <external libraries>])
function(sc_layer name)
  cmake_parse_arguments(L "" "" "DIRS;DEPS;LIBS;EXTRA_SOURCES" ${ARGN})
  set(srcs ${L_EXTRA_SOURCES})
  set(view "${CMAKE_BINARY_DIR}/layers/${name}")
  file(MAKE_DIRECTORY "${view}")
  foreach(d IN LISTS L_DIRS)
    file(GLOB_RECURSE s CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/${d}/*.cpp")
    list(APPEND srcs ${s})
    get_filename_component(leaf "${d}" NAME)
    # A build folder copied from another checkout keeps links into that checkout: its
    # headers, not this one's, would be compiled. Such a link is made again.
    if(IS_SYMLINK "${view}/${leaf}")
      file(READ_SYMLINK "${view}/${leaf}" was)
      if(NOT was STREQUAL "${CMAKE_SOURCE_DIR}/${d}")
        file(REMOVE "${view}/${leaf}")
      endif()
    endif()
    if(NOT EXISTS "${view}/${leaf}")
      file(CREATE_LINK "${CMAKE_SOURCE_DIR}/${d}" "${view}/${leaf}" SYMBOLIC)
    endif()
  endforeach()
  list(FILTER srcs EXCLUDE REGEX ".*/linter/cli/main\\.cpp$")
  add_library(sc_${name} OBJECT ${srcs})
  target_include_directories(sc_${name} PUBLIC "${view}")
  target_compile_options(sc_${name} PRIVATE -Wall -Wextra ${SC_WARNING_FLAGS})
  target_link_libraries(sc_${name} PUBLIC ${L_DEPS} ${L_LIBS})
  set(SC_LAYERS ${SC_LAYERS} sc_${name} PARENT_SCOPE)
endfunction()
