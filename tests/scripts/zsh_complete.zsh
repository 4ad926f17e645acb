# usage: zsh -f zsh_complete.zsh DIR LINE
# Prints, one per line, the candidates zsh's completion system offers for LINE,
# with the completion functions in DIR (e.g. DIR/_sparkcheck). It drives an
# interactive zsh in a pseudo-terminal (zsh/zpty), TAB bound to complete-word,
# with compadd wrapped to print each match it adds. The markers are typed split
# ("@@""m:") so that the terminal's echo of the input never looks like output.
zmodload zsh/zpty || { print -u2 "zsh/zpty module missing"; exit 3 }
dir=$1 line=$2
zpty comp zsh -f -i
setup=(
  "PS1='' RPS1=''"
  "fpath=(${(q)dir} \$fpath); autoload -U compinit; compinit -u -D"
  "bindkey '^I' complete-word"
  'compadd() {
     if [[ " $* " == *" -"[OAD]" "* ]]; then builtin compadd "$@"; return; fi
     local -a got; builtin compadd -O got "$@"; print -rl -- "@@""m:"${^got}; builtin compadd "$@"; }'
  '_sc_done() { print -r -- "@@""done@@"; exit }; comppostfuncs=(_sc_done)'
)
for s in $setup; do zpty -w comp "$s"; done
zpty -n -w comp "$line"$'\t'
out=
zpty -r -m comp out '*@@done@@*' || exit 4
for l in ${(f)out//$'\r'/}; do
  [[ $l == *@@m:* ]] && print -r -- ${l#*@@m:}
done
zpty -d comp
