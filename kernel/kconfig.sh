# shellcheck shell=bash
# Sourced by kernel/build.sh and kernel/check-configs.sh.
#
# kconfig_kept FRAGMENT CONFIG [OPTION...]: every CONFIG_ line of FRAGMENT
#   (a kernel/*.config file) must have survived olddefconfig into CONFIG,
#   except the OPTIONs named (without CONFIG_), which a variant turned off.
#   Prints (to stderr) one line per lost option, naming the fragment's
#   line as kernel/<name>:<line>, and returns 1 if any was lost.
kconfig_kept() {
	local frag=$1 config=$2 line opt got lineno=0 lost=0
	shift 2
	while IFS= read -r line || [ -n "$line" ]; do
		lineno=$((lineno + 1))
		case $line in
		CONFIG_*=*) opt=${line%%=*} ;;
		"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *} ;;
		*) continue ;;
		esac
		case " $* " in *" ${opt#CONFIG_} "*) continue ;; esac
		got=$(grep -E "^($opt=|# $opt is not set)" "$config" || true)
		if [ "$line" != "$got" ] && ! { [ -z "$got" ] && [ "${line#\# }" != "$line" ]; }; then
			echo "kernel/${frag##*/}:$lineno: $opt: wanted '$line', olddefconfig gave '${got:-unset}' (a dependency is missing)" >&2
			lost=1
		fi
	done < "$frag"
	return $lost
}
