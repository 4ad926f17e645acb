# Row 15: non-UTF-8 file names and control characters: JUnit, SARIF, JSON stay
# well-formed; JSON keeps the real bytes recoverable.
. "$(dirname "$0")/lib.bash"
printf 'torch==2.5.1\nnvidia-modelopt\n' > "repo/requirements-$(printf '\xff\xfe\x1b')x.txt"
printf 'torch==2.5.1\n' > repo/requirements.txt
lim lint repo -f junit -o "$T/r.xml"
finished
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$T/r.xml" || fail "JUnit not well-formed"
lim lint repo -f sarif -o "$T/r.sarif"
valid_json "$T/r.sarif"
lim lint repo -f json -o "$T/r.json"
valid_json "$T/r.json"
