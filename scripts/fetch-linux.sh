#!/bin/sh
# Debian 12's stock kernels for the Linux tests: each flavour's current image package, found
# through its metapackage, fetched once with `apt-get download` and reduced to its /boot; a
# cached copy is used as it is, without asking the archive again (rm -r the flavour's
# directory to fetch the current one). --dbg adds the matching -dbg package's vmlinux (ELF
# with .rela sections; hundreds of MB, so only `make linux-dbg` asks for it).
#
# usage: fetch-linux.sh [--dbg] CACHE_DIR FLAVOUR...    FLAVOUR: 686 or cloud-amd64
# Leaves CACHE_DIR/FLAVOUR/{vmlinuz,config,package,efivarfs.ko} (and vmlinux with --dbg);
# package holds "NAME VERSION ARCH" of the image package; efivarfs.ko is the package's module
# of that name (a module in Debian's kernels), which the tests' initramfs loads to list the
# EFI variables. A cache from before it had the module gets it from the same version.
set -u

dbg=false
[ "${1:-}" = --dbg ] && { dbg=true; shift; }
[ $# -ge 2 ] || { echo "usage: $0 [--dbg] CACHE_DIR FLAVOUR..." >&2; exit 2; }
cache=$1
shift

fail() { echo "fetch-linux: $*" >&2; exit 1; }

# The Debian architecture each flavour is built for.
flavour_arch() {
	case $1 in
	686) echo i386 ;;
	cloud-amd64) echo amd64 ;;
	*) fail "unknown flavour '$1' (known: 686, cloud-amd64)" ;;
	esac
}

# An i386 package can be downloaded on amd64 only once dpkg knows the architecture and apt
# has its package lists (a run that added the architecture but could not update the lists
# leaves the first without the second: checked apart).
ensure_arch() { # ensure_arch ARCH FLAVOUR
	arch=$1 flavour=$2
	[ "$arch" = "$(dpkg --print-architecture)" ] && return 0
	if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
		[ "$(id -u)" = 0 ] ||
			fail "the $arch package lists are missing; as root: dpkg --add-architecture $arch && apt-get update"
		echo "fetch-linux: adding the $arch architecture to dpkg and updating the package lists"
		dpkg --add-architecture "$arch" || fail "cannot add the $arch architecture to dpkg"
	fi
	apt-cache show "linux-image-$flavour:$arch" >/dev/null 2>&1 && return 0
	[ "$(id -u)" = 0 ] || fail "apt has no $arch package lists; as root: apt-get update"
	update_lists "linux-image-$flavour:$arch"
}

# update_lists PACKAGE: apt-get update, tried again while the archive answers with an index
# it is still syncing ("File has unexpected size ... Mirror sync in progress?"). apt-get
# exits non-zero when any one index failed, even one this script never reads (say the
# security suite's); what counts is whether apt now knows PACKAGE.
update_lists() {
	for attempt in 1 2 3; do
		apt-get update -qq && return 0
		apt-cache show "$1" >/dev/null 2>&1 && {
			echo "fetch-linux: some package lists failed to update; $1 is known, going on"
			return 0
		}
		echo "fetch-linux: apt-get update failed (attempt $attempt of 3)" >&2
		sleep $((attempt * 10))
	done
	fail "cannot update the package lists: apt does not know $1 (is the Debian archive reachable?)"
}

# download PACKAGE:ARCH=VERSION DIR: one .deb into DIR, or fail with what to do.
download() {
	mkdir -p "$2" && rm -f "$2"/*.deb
	if ! (cd "$2" && apt-get download -q "$1" >download.log 2>&1); then
		sed 's/^/fetch-linux:   /' "$2/download.log" >&2
		rm -rf "$2"
		fail "cannot download $1 and there is no cached copy under $cache (is the Debian archive reachable? try apt-get update)"
	fi
	ls "$2"/*.deb
}

# The image package the metapackage names today: "NAME VERSION".
current_package() {
	flavour=$1 arch=$2
	name=$(apt-cache depends "linux-image-$flavour:$arch" 2>/dev/null |
		sed -n "s/^ *Depends: \(linux-image-[0-9][^:]*-$flavour\)\(:$arch\)\{0,1\}\$/\1/p" | head -n 1)
	[ -n "$name" ] ||
		fail "apt-cache does not know linux-image-$flavour:$arch (run apt-get update; is the Debian archive reachable?)"
	version=$(apt-cache policy "$name:$arch" | sed -n 's/^ *Candidate: //p')
	[ -n "$version" ] && [ "$version" != "(none)" ] || fail "no candidate version of $name:$arch"
	echo "$name $version"
}

fetch_image() {
	flavour=$1 dir=$cache/$1
	[ -f "$dir/vmlinuz" ] && [ -f "$dir/package" ] && return 0
	arch=$(flavour_arch "$flavour") || exit 1
	ensure_arch "$arch" "$flavour"
	package=$(current_package "$flavour" "$arch") || exit 1
	name=${package% *} version=${package#* }
	echo "fetch-linux: downloading $name $version ($arch)"
	tmp=$cache/.tmp-$flavour
	rm -rf "$tmp"
	deb=$(download "$name:$arch=$version" "$tmp") || exit 1
	mkdir -p "$tmp/root" && dpkg-deb --fsys-tarfile "$deb" |
		tar -x -C "$tmp/root" --wildcards './boot' '*/efivarfs.ko' ||
		fail "cannot extract /boot and efivarfs.ko from $deb"
	kver=${name#linux-image-}
	keep_module "$tmp/root" "$dir" "$deb"
	for f in vmlinuz config; do
		[ -f "$tmp/root/boot/$f-$kver" ] || fail "$deb has no /boot/$f-$kver"
	done
	mkdir -p "$dir"
	cp "$tmp/root/boot/config-$kver" "$dir/config"
	echo "$name $version $arch" >"$dir/package"
	# Last, so that a cache with a vmlinuz is a whole one.
	cp "$tmp/root/boot/vmlinuz-$kver" "$dir/vmlinuz.tmp" && mv "$dir/vmlinuz.tmp" "$dir/vmlinuz"
	rm -rf "$tmp"
}

# keep_module ROOT DIR DEB: the package's efivarfs.ko, extracted under ROOT, into DIR.
keep_module() {
	ko=$(find "$1" -type f -name efivarfs.ko | head -n 1)
	[ -n "$ko" ] || fail "$3 has no efivarfs.ko"
	mkdir -p "$2" && cp "$ko" "$2/efivarfs.ko.tmp" && mv "$2/efivarfs.ko.tmp" "$2/efivarfs.ko"
}

# efivarfs.ko of exactly the cached image's version, for a cache that lacks it.
fetch_module() {
	flavour=$1 dir=$cache/$1
	[ -f "$dir/efivarfs.ko" ] && return 0
	read -r name version arch <"$dir/package" || fail "$dir/package is unreadable"
	echo "fetch-linux: downloading $name $version ($arch) again for its efivarfs.ko"
	tmp=$cache/.tmp-$flavour-module
	rm -rf "$tmp"
	deb=$(download "$name:$arch=$version" "$tmp") || exit 1
	mkdir -p "$tmp/root"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/root" --wildcards '*/efivarfs.ko' ||
		fail "cannot extract efivarfs.ko from $deb"
	keep_module "$tmp/root" "$dir" "$deb"
	rm -rf "$tmp"
}

# The -dbg package of exactly the cached image's version.
fetch_dbg() {
	flavour=$1 dir=$cache/$1
	[ -f "$dir/vmlinux" ] && return 0
	read -r name version arch <"$dir/package" || fail "$dir/package is unreadable"
	kver=${name#linux-image-}
	echo "fetch-linux: downloading $name-dbg $version ($arch; large)"
	tmp=$cache/.tmp-$flavour-dbg
	rm -rf "$tmp"
	deb=$(download "$name-dbg:$arch=$version" "$tmp") || exit 1
	mkdir -p "$tmp/root"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/root" --wildcards '*/vmlinux*' ||
		fail "cannot extract vmlinux from $deb"
	vmlinux=$(find "$tmp/root" -type f \( -name "vmlinux-$kver" -o -name vmlinux \) | head -n 1)
	[ -n "$vmlinux" ] || fail "$deb has no vmlinux"
	mv "$vmlinux" "$dir/vmlinux.tmp" && mv "$dir/vmlinux.tmp" "$dir/vmlinux"
	rm -rf "$tmp"
}

for flavour in "$@"; do
	fetch_image "$flavour"
	fetch_module "$flavour"
	$dbg && fetch_dbg "$flavour"
done
exit 0
