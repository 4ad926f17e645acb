# cmake -DBIN=... [-DEMU="qemu;-L;..."] -DVERSION=... -DOUT=sparkcheck.1.gz -P cmake/manpage.cmake
# Writes sparkcheck(1) from the binary's own --help texts (the top level and each
# subcommand), gzipped without a timestamp.
set(run ${EMU} ${BIN})
function(help_of out)
  execute_process(COMMAND ${run} ${ARGN} --help OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "manpage: '${ARGN} --help' failed (${rc})")
  endif()
  string(REGEX REPLACE "Usage: [^ ]*sparkcheck" "Usage: sparkcheck" text "${text}")
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

string(TIMESTAMP date "%Y-%m-%d" UTC)
help_of(top)
set(man ".TH SPARKCHECK 1 \"${date}\" \"sparkcheck ${VERSION}\" \"User Commands\"
.SH NAME
sparkcheck \\- catch DGX Spark (GB10) training failure modes before the run
.SH SYNOPSIS
.B sparkcheck
[\\fIOPTIONS\\fR] \\fISUBCOMMAND\\fR ...
.SH DESCRIPTION
sparkcheck lints ML-training projects (Dockerfiles, requirements, pyproject, launch
scripts, training configs) for known NVIDIA DGX Spark failure modes (\\fBlint\\fR) and
checks a live machine (\\fBprobe\\fR). Rule documentation: \\fBsparkcheck rule\\fR \\fIID\\fR,
and /usr/share/doc/sparkcheck.
.PP
.nf
${top}.fi
")
foreach(sub lint config rules rule probe)
  help_of(text ${sub})
  string(TOUPPER "${sub}" title)
  string(APPEND man ".SH ${title}\n.nf\n${text}.fi\n")
endforeach()
string(APPEND man ".SH SEE ALSO\nhttps://github.com/sparkcheck/sparkcheck\n")
get_filename_component(dir "${OUT}" DIRECTORY)
string(REGEX REPLACE "\\.gz$" "" plain "${OUT}")
file(WRITE "${plain}" "${man}")
execute_process(COMMAND gzip -9nf "${plain}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "manpage: gzip failed")
endif()
