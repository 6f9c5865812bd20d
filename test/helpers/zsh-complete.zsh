# Completes a line in a real interactive zsh: the completion system loaded, the script ($1) sourced,
# the line ($2) typed and TAB pressed; prints what the terminal showed.
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PS1='>'; autoload -U compinit; compinit -u -D; source $1; unsetopt beep"
zpty -w z "print RE''ADY"
zpty -r -m z out '*READY*'
zpty -w -n z "$2"$'\t'
sleep 1
zpty -w -n z $'\C-e'" ##END"$'\n'
sleep 0.5
local all=''
while zpty -r -t z chunk; do all+=$chunk; done
print -r -- "$all"
zpty -d z
