# Embeds text files into the binary as (name, text) pairs returned by a generated C++ function:
# the rule documentation (rules/*/<id>.md: `sparkcheck rule GN`, SARIF help, docs/rules/).
# (The knowledge tables are packed by cmake/knowledge_pack.cmake.)
# sc_embed(<out var: generated .cpp> <C++ function> <glob>): each file named after its folder.
function(sc_embed out_var func pattern)
  file(GLOB files CONFIGURE_DEPENDS "${pattern}")
  list(SORT files)
  set(cpp "${CMAKE_BINARY_DIR}/generated/${func}.cpp")
  # the list reaches the script as one argument: escape its ';'
  string(REPLACE ";" "$<SEMICOLON>" arg "${files}")
  add_custom_command(
    OUTPUT ${cpp}
    COMMAND ${CMAKE_COMMAND} -DOUT=${cpp} -DFUNC=${func} "-DFILES=${arg}"
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_run.cmake
    DEPENDS ${files} ${CMAKE_SOURCE_DIR}/cmake/embed_run.cmake
    COMMENT "Embedding ${func}"
    VERBATIM)
  set(${out_var} ${cpp} PARENT_SCOPE)
endfunction()

sc_embed(SC_RULE_DOCS_CPP embedded_rule_docs "${CMAKE_SOURCE_DIR}/rules/*/*.md")
