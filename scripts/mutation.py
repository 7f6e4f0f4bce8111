#!/usr/bin/env python3
"""Read, apply and undo the mutations of tests/mutations/ (format: tests/mutations/README),
for scripts/mutate.sh.

usage: mutation.py show MUTATION KEY        print a header value (what, stages, known-open,
                                            refused-at-build)
       mutation.py files MUTATION...        print the files the mutations edit, one a line
       mutation.py apply MUTATION TREE SAVE save each file it edits under SAVE, then edit it
       mutation.py restore SAVE TREE        put the saved files back, newer than any object
       mutation.py touch TREE FILE...       make these files (where they exist) newer
       mutation.py touch-changed OLD NEW    make NEW's files whose bytes differ from OLD's
                                            newer (copies keep times; an edit made while
                                            the last copy was building may be older than
                                            the objects built from the file before it)
       mutation.py tracked REPO             the tracked files that exist, NUL-separated
A mutation that no longer applies (its lines are gone or ambiguous) changes nothing and exits
1 with a message naming the file and the first line looked for.
"""
import filecmp
import os
import shutil
import subprocess
import sys

HEADER_KEYS = ("what", "stages", "known-open", "refused-at-build")


class MutationError(Exception):
    pass


def parse(path):
    """The header (dict) and the edits: a list of (file, old text, new text)."""
    header, edits, current = {}, [], None
    with open(path) as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, 1):
        if line.startswith("edit:"):
            current = [line[len("edit:"):].strip(), [], []]
            edits.append(current)
        elif current is None:
            if not line.strip() or line.startswith("#"):
                continue
            key, sep, value = line.partition(":")
            if not sep or key not in HEADER_KEYS:
                raise MutationError(f"{path}:{number}: expected one of "
                                    f"{', '.join(HEADER_KEYS)} or edit:")
            header[key] = value.strip()
        elif line == "" or line[0] in " -+":
            mark, text = (line[0], line[1:]) if line else (" ", "")
            if mark != "+":
                current[1].append(text)
            if mark != "-":
                current[2].append(text)
        else:
            raise MutationError(f"{path}:{number}: an edit line starts with ' ', '-' or '+'")
    for key in ("what", "stages"):
        if not header.get(key):
            raise MutationError(f"{path}: no '{key}:' line")
    if not edits:
        raise MutationError(f"{path}: no 'edit:' section")
    result = []
    for name, old, new in edits:
        while old and new and old[-1] == "" and new[-1] == "":  # blank lines between edits
            old.pop()
            new.pop()
        if not name or not old:
            raise MutationError(f"{path}: an edit needs a file and lines to replace")
        result.append((name, "\n".join(old) + "\n", "\n".join(new) + "\n"))
    return header, result


def apply(path, tree, save):
    name = os.path.splitext(os.path.basename(path))[0]
    _, edits = parse(path)
    texts = {}
    for file, old, new in edits:
        target = os.path.join(tree, file)
        if file not in texts:
            if not os.path.isfile(target):
                raise MutationError(f"{name}: {file} does not exist any more: update the "
                                    "mutation")
            with open(target) as f:
                texts[file] = f.read()
        found = texts[file].count(old)
        if found != 1:
            first = next((l for l in old.split("\n") if l.strip()), "")
            why = "are not there any more (the code moved)" if found == 0 else \
                f"occur {found} times (add context lines)"
            raise MutationError(f"{name}: {file}: the lines to change, from '{first.strip()}', "
                                f"{why}: update the mutation")
        texts[file] = texts[file].replace(old, new)
    for file, text in texts.items():  # every edit checked: now write
        saved = os.path.join(save, file)
        os.makedirs(os.path.dirname(saved), exist_ok=True)
        shutil.copy2(os.path.join(tree, file), saved)
        with open(os.path.join(tree, file), "w") as f:
            f.write(text)
        print(file)


def restore(save, tree):
    for root, _, files in os.walk(save):
        for f in files:
            saved = os.path.join(root, f)
            target = os.path.join(tree, os.path.relpath(saved, save))
            shutil.copyfile(saved, target)  # a new mtime: whatever the mutation built goes
            os.remove(saved)


def touch(tree, files):
    for f in files:
        target = os.path.join(tree, f)
        if os.path.isfile(target):
            os.utime(target)


def touch_changed(old, new):
    for root, dirs, files in os.walk(new):
        if root == new and "build" in dirs:
            dirs.remove("build")
        for f in files:
            fresh = os.path.join(root, f)
            before = os.path.join(old, os.path.relpath(fresh, new))
            if os.path.islink(fresh) or not os.path.isfile(before):
                continue  # a new file is newer than anything built from it anyway
            if (os.path.getsize(fresh) != os.path.getsize(before)
                    or not filecmp.cmp(fresh, before, shallow=False)):
                os.utime(fresh)


def tracked(repo):
    names = subprocess.run(["git", "-C", repo, "ls-files", "-z"], check=True,
                           capture_output=True).stdout.split(b"\0")
    out = sys.stdout.buffer
    for n in names:
        if n and os.path.lexists(os.path.join(repo.encode(), n)):
            out.write(n + b"\0")


def main(argv):
    try:
        if len(argv) == 4 and argv[1] == "show":
            print(parse(argv[2])[0].get(argv[3], ""))
        elif len(argv) >= 3 and argv[1] == "files":
            for path in argv[2:]:
                for file in sorted({e[0] for e in parse(path)[1]}):
                    print(file)
        elif len(argv) == 5 and argv[1] == "apply":
            apply(argv[2], argv[3], argv[4])
        elif len(argv) == 4 and argv[1] == "restore":
            restore(argv[2], argv[3])
        elif len(argv) >= 3 and argv[1] == "touch":
            touch(argv[2], argv[3:])
        elif len(argv) == 4 and argv[1] == "touch-changed":
            touch_changed(argv[2], argv[3])
        elif len(argv) == 3 and argv[1] == "tracked":
            tracked(argv[2])
        else:
            print(__doc__.strip(), file=sys.stderr)
            return 2
    except (MutationError, OSError, subprocess.CalledProcessError) as e:
        print(f"mutation: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
