# Embeds rules/*/<id>.md (the rule documentation) into the binary, so that
# `sparkcheck rule GN`, SARIF help and docs/rules/ all come from one text.
file(GLOB SC_RULE_DOCS CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/rules/*/*.md")
list(SORT SC_RULE_DOCS)
set(SC_RULE_DOCS_CPP "${CMAKE_BINARY_DIR}/generated/rule_docs_data.cpp")
# The list must reach the script as one argument: escape its ';' (the shell
# would otherwise split the command there).
string(REPLACE ";" "$<SEMICOLON>" SC_RULE_DOCS_ARG "${SC_RULE_DOCS}")
add_custom_command(
  OUTPUT ${SC_RULE_DOCS_CPP}
  COMMAND ${CMAKE_COMMAND} -DOUT=${SC_RULE_DOCS_CPP} "-DDOCS=${SC_RULE_DOCS_ARG}"
          -P ${CMAKE_SOURCE_DIR}/cmake/embed_docs_run.cmake
  DEPENDS ${SC_RULE_DOCS} ${CMAKE_SOURCE_DIR}/cmake/embed_docs_run.cmake
  COMMENT "Embedding rule documentation"
  VERBATIM)
