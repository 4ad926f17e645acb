# Read by cpack (CPACK_PROJECT_CONFIG_FILE) for a static build: Depends is libc6 from
# the newest GLIBC_2.N symbol version the built binary needs (objdump -T).
if(CPACK_SC_BINARY AND EXISTS "${CPACK_SC_BINARY}")
  execute_process(COMMAND "${CPACK_SC_OBJDUMP}" -T "${CPACK_SC_BINARY}" OUTPUT_VARIABLE syms)
  string(REGEX MATCHALL "GLIBC_2\\.[0-9]+" versions "${syms}")
  set(floor 0)
  foreach(v IN LISTS versions)
    string(REPLACE "GLIBC_2." "" n "${v}")
    if(n GREATER floor)
      set(floor ${n})
    endif()
  endforeach()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.${floor})")
endif()
