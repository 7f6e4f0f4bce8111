#!/bin/sh
# Signing kslide-pack --format efi images, judged by tools kslide did not write: each KERNEL is
# packed as a PE, signed by sbsign (sbsigntool) with a throwaway key, and sbverify must accept
# it; osslsigncode computes the Authenticode digest itself and it must equal the one sbsign
# embedded, as must pesign's (the signing tool of other distributions), and sbsign must not
# warn (a gap between the headers and the section, which sbsign hashes otherwise than the
# specification and the firmware do, is the usual complaint).
# Then kslide-pack --sign signs it itself (tools/pack/authenticode.c): sbverify must accept
# that with the certificate and refuse it with another, the digest in it must be sbsign's and
# osslsigncode's, and the PE checksum osslsigncode's. Its refusals are in errors.sh.
# One TAP-style line per check, then "pack-sign: N passed, M failed".
# usage: sign.sh BUILD_DIR KERNEL...   (KSLIDE_PACK=path runs another build)
set -u
B=$1
shift
PACK=${KSLIDE_PACK:-$B/bin/kslide-pack}
for f in "$PACK" "$@"; do
	[ -e "$f" ] || { echo "pack-sign: $f is missing: run make first" >&2; exit 1; }
done
for p in sbsign sbverify osslsigncode pesign openssl; do
	command -v $p >/dev/null || { echo "pack-sign: $p is missing: make bootstrap" >&2; exit 1; }
done
T=$(mktemp -d "${TMPDIR:-/tmp}/kslide-pack-sign.XXXXXX")
trap 'rm -rf "$T"' EXIT
n=0 passed=0 failed=0
check() { # check NAME CONDITION-COMMAND...
	what=$1
	shift
	n=$((n + 1))
	if "$@"; then
		passed=$((passed + 1)) && echo "ok $n - $what"
	else
		failed=$((failed + 1)) && echo "not ok $n - $what"
		[ -s "$T/log" ] && sed 's/^/#  /' "$T/log"
	fi
	return 0
}

# A throwaway key and its self-signed certificate: nothing here is trusted beyond this run.
for who in test other; do
	openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=kslide-$who -days 1 \
		-keyout "$T/$who.key" -out "$T/$who.crt" 2>"$T/log" || { cat "$T/log" >&2; exit 1; }
done

# The digest osslsigncode computes over IMAGE, and the one the signature in it carries.
digests() {
	osslsigncode verify -in "$1" 2>&1 | sed -n 's/^\(Current\|Calculated\) message digest *: *\([0-9A-F]*\).*/\2/p'
}
same_digests() { # one signature, and osslsigncode's digest of the file equals it
	set -- $(digests "$1")
	[ $# -eq 2 ] && [ -n "$1" ] && [ "$1" = "$2" ]
}

same_as_sbsign() { # OWN SBSIGNED: one digest in each, the same, and osslsigncode's for OWN
	set -- $(digests "$1") $(digests "$2")
	[ $# -eq 4 ] && [ -n "$1" ] && [ "$1" = "$2" ] && [ "$1" = "$3" ]
}
same_as_pesign() { # UNSIGNED SIGNED: pesign's digest of the one is the digest in the other
	set -- "$(pesign -h -i "$1" 2>/dev/null | sed -n 's/^hash: *\([0-9a-f]*\)$/\1/p' |
		tr a-f A-F)" $(digests "$2")
	[ $# -eq 3 ] && [ -n "$1" ] && [ "$1" = "$2" ]
}
# The signed file (2) begins with the unsigned one (1), byte for byte, but for the PE checksum
# and the certificate table's directory entry: bytes 152-155 and 232-239, as the container
# puts the PE header at 0x40 (cmp -l counts from 1).
same_but_signature() {
	cmp -l -n "$(stat -c %s "$1")" "$1" "$2" |
		awk '!(($1 >= 153 && $1 <= 156) || ($1 >= 233 && $1 <= 240)) { bad = 1 } END { exit bad }'
}

for k in "$@"; do
	name=$(basename "$(dirname "$k")")/$(basename "$k")
	img=$T/$(echo "$name" | tr / -).efi
	# Stored as LZ4: signing does not depend on the codec, and zstd at level 22 spends 25 s of
	# CPU on each of Debian's kernel's two packs here.
	"$PACK" --format efi --compress lz4 -o "$img" "$k" 2>"$T/log" ||
		{ check "$name: packed" false; continue; }
	check "$name: sbsign signs its --format efi image without a warning" \
		sh -c 'sbsign --key "$1" --cert "$2" --output "$3.signed" "$3" >"$4" 2>&1 &&
			! grep -qi "warning\|gap" "$4"' - "$T/test.key" "$T/test.crt" "$img" "$T/log"
	check "$name: sbverify accepts the signed image" \
		sh -c 'sbverify --cert "$1" "$2.signed" >"$3" 2>&1' - "$T/test.crt" "$img" "$T/log"
	: >"$T/log"
	check "$name: osslsigncode's Authenticode digest equals sbsign's" \
		same_digests "$img.signed"
	check "$name: pesign computes the same Authenticode digest of the unsigned image" \
		same_as_pesign "$img" "$img.signed"
	"$PACK" --format efi --compress lz4 --sign "$T/test.key" --cert "$T/test.crt" -o "$img.own" "$k" \
		2>"$T/log" || { check "$name: kslide-pack --sign" false; continue; }
	check "$name: sbverify accepts kslide-pack --sign's signature" \
		sh -c 'sbverify --cert "$1" "$2.own" >"$3" 2>&1' - "$T/test.crt" "$img" "$T/log"
	check "$name: sbverify refuses it with another certificate" \
		sh -c '! sbverify --cert "$1" "$2.own" >"$3" 2>&1' - "$T/other.crt" "$img" "$T/log"
	: >"$T/log"
	check "$name: --sign embeds the digest sbsign embeds, and osslsigncode's" \
		same_as_sbsign "$img.own" "$img.signed"
	check "$name: --sign's PE checksum is the one osslsigncode computes" \
		sh -c 'osslsigncode verify -in "$1.own" 2>&1 | grep -q "^PE checksum *: [0-9A-F]" &&
			! osslsigncode verify -in "$1.own" 2>&1 | grep -q "Calculated PE checksum"' - "$img"
	check "$name: --sign's file is the unsigned one, the checksum and table entry aside" \
		same_but_signature "$img" "$img.own"
done

echo "pack-sign: $passed passed, $failed failed"
[ $failed -eq 0 ]
