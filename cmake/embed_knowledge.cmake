# Embeds knowledge/*.yaml (the domain tables) into the binary; read by linter/knowledge.
file(GLOB SC_KNOWLEDGE_FILES CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/knowledge/*.yaml")
list(SORT SC_KNOWLEDGE_FILES)
set(SC_KNOWLEDGE_CPP "${CMAKE_BINARY_DIR}/generated/knowledge_data.cpp")
string(REPLACE ";" "$<SEMICOLON>" SC_KNOWLEDGE_ARG "${SC_KNOWLEDGE_FILES}")
add_custom_command(
  OUTPUT ${SC_KNOWLEDGE_CPP}
  COMMAND ${CMAKE_COMMAND} -DOUT=${SC_KNOWLEDGE_CPP} "-DFILES=${SC_KNOWLEDGE_ARG}"
          -P ${CMAKE_SOURCE_DIR}/cmake/embed_knowledge_run.cmake
  DEPENDS ${SC_KNOWLEDGE_FILES} ${CMAKE_SOURCE_DIR}/cmake/embed_knowledge_run.cmake
  COMMENT "Embedding knowledge tables"
  VERBATIM)
