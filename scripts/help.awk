# `make help`: the targets and what they do, read from the makefiles themselves. A target is
# documented by `#:` lines right above its rule (the first rule naming it):
#
#   #: what the target does; more `#:` lines continue the text
#   name: prerequisites
#
# Every .PHONY target must have them: one without is named on stderr and help fails, so the
# list cannot fall behind the makefiles. "$(BUILD)" in the text becomes the build directory.
# usage: awk -v build=DIR -f scripts/help.awk Makefile mk/*.mk
FNR == 1 { doc = "" }
/^\.PHONY:/ {
	for (i = 2; i <= NF; i++)
		if (!(($i) in phony)) { phony[$i] = 1; phony_order[++nphony] = $i; phony_file[$i] = FILENAME }
	doc = ""
	next
}
/^#:/ {
	line = $0
	sub(/^#: ?/, "", line)
	gsub(/\$\(BUILD\)/, build, line)
	doc = doc == "" ? line : doc "\n" line
	next
}
/^[A-Za-z0-9_.-]+( +[A-Za-z0-9_.-]+)*:/ && !/^[^:]*:=/ && doc != "" {
	names = $0
	sub(/:.*/, "", names)
	n = split(names, t, / +/)
	for (i = 1; i <= n; i++)
		if (!(t[i] in text)) { text[t[i]] = doc; order[++ntargets] = t[i] }
}
{ doc = "" }
END {
	printf "kslide: make TARGET (outputs in %s/)\n", build
	for (i = 1; i <= ntargets; i++) {
		n = split(text[order[i]], lines, "\n")
		printf "  %-20s %s\n", order[i], lines[1]
		for (j = 2; j <= n; j++)
			printf "  %-20s %s\n", "", lines[j]
	}
	bad = 0
	for (i = 1; i <= nphony; i++)
		if (!(phony_order[i] in text)) {
			printf "help: %s: .PHONY target %s has no #: lines above its rule\n",
				phony_file[phony_order[i]], phony_order[i] > "/dev/stderr"
			bad = 1
		}
	exit bad
}
