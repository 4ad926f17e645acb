# SPARKCHECK_STATIC=ON: a self-contained binary. yaml-cpp, RE2, tree-sitter, cmark
# (and the header-only CLI11, nlohmann_json, toml++) plus libstdc++/libgcc are
# linked statically; only glibc stays dynamic (NVML/libcuda are dlopen'ed by probe).
# The binary is stripped after linking; its debug info goes to sparkcheck.debug,
# tied to it by a .gnu_debuglink section.
if(SPARKCHECK_STATIC)
  set(CMAKE_FIND_LIBRARY_SUFFIXES .a)   # pkg_check_modules then resolves to the .a files
  # Debian builds toml++ as a shared library; use it header-only instead. Defined
  # before find_package(tomlplusplus), whose config then keeps this target.
  find_path(SC_TOMLPP_INCLUDE toml++/toml.h REQUIRED)
  add_library(tomlplusplus::tomlplusplus INTERFACE IMPORTED)
  set_target_properties(tomlplusplus::tomlplusplus PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${SC_TOMLPP_INCLUDE}"
    INTERFACE_COMPILE_DEFINITIONS "TOML_HEADER_ONLY=1")
endif()

# After find_package: yaml-cpp's CMake config names its shared library; point it at the archive.
function(sc_static_dependencies)
  if(NOT SPARKCHECK_STATIC)
    return()
  endif()
  find_library(SC_YAML_CPP_ARCHIVE NAMES libyaml-cpp.a REQUIRED)
  get_target_property(configs yaml-cpp IMPORTED_CONFIGURATIONS)
  foreach(c IN LISTS configs)
    set_target_properties(yaml-cpp PROPERTIES IMPORTED_LOCATION_${c} "${SC_YAML_CPP_ARCHIVE}")
  endforeach()
  set_target_properties(yaml-cpp PROPERTIES IMPORTED_LOCATION "${SC_YAML_CPP_ARCHIVE}")
endfunction()

function(sc_static_executable target)
  if(NOT SPARKCHECK_STATIC)
    return()
  endif()
  target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc -Wl,-z,relro,-z,now)
  set(bin "$<TARGET_FILE:${target}>")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${CMAKE_OBJCOPY}" --only-keep-debug "${bin}" "${bin}.debug"
    COMMAND "${CMAKE_STRIP}" --strip-all --remove-section=.comment "${bin}"
    COMMAND "${CMAKE_OBJCOPY}" "--add-gnu-debuglink=${bin}.debug" "${bin}"
    WORKING_DIRECTORY "$<TARGET_FILE_DIR:${target}>"
    COMMENT "Splitting debug info of ${target} into ${target}.debug and stripping it"
    VERBATIM)
endfunction()
