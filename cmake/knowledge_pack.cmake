# The knowledge tables (knowledge/*.yaml), packed at build time by knowledge_pack
# (cmake/knowledge_pack.cpp) into a generated C++ file that linter/knowledge reads without
# parsing YAML at start-up. Cross builds run the tool through CMAKE_CROSSCOMPILING_EMULATOR.
if(CMAKE_CROSSCOMPILING AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  message(FATAL_ERROR "a cross build runs knowledge_pack through CMAKE_CROSSCOMPILING_EMULATOR: "
                      "install qemu-user-static (cmake/toolchain-aarch64.cmake finds qemu-aarch64-static)")
endif()
add_executable(knowledge_pack ${CMAKE_SOURCE_DIR}/cmake/knowledge_pack.cpp)
target_link_libraries(knowledge_pack PRIVATE yaml-cpp)
file(GLOB SC_KNOWLEDGE_YAML CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/knowledge/*.yaml")
list(SORT SC_KNOWLEDGE_YAML)
set(SC_KNOWLEDGE_CPP "${CMAKE_BINARY_DIR}/generated/packed_knowledge.cpp")
add_custom_command(
  OUTPUT ${SC_KNOWLEDGE_CPP}
  COMMAND knowledge_pack ${SC_KNOWLEDGE_CPP} ${SC_KNOWLEDGE_YAML}
  DEPENDS knowledge_pack ${SC_KNOWLEDGE_YAML}
  COMMENT "Packing the knowledge tables"
  VERBATIM)
