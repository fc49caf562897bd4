#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_docs.sh - the documentation stays reference, and its pointers hold:
#  1. every reference to a section of another document (a file name ending
#     in .rst, an optional comma, then the section's title in double
#     quotes), in Documentation/, README and the sources' comments, names
#     a section title of that document (the title itself or its first words);
#  2. every file or directory Documentation/architecture.rst names exists;
#  3. no diary in Documentation/ or README: the word session only in its
#     technical senses (the allow-list below), no commit hashes;
#  4. Documentation/performance.rst keeps to 400 lines.
# REPO=DIR checks another tree (a copy, to see a check fail).
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null || ktap_skip_all "no python3"

# One line per check: "ok|fail<TAB>description", then its findings, each
# line prefixed with "  ".
results=$(python3 - "$REPO" <<'EOF'
import glob, os, re, sys

repo = sys.argv[1]
PERF_MAX = 400
# "session" in its technical senses: a process session (setsid), tmux's,
# the prober's random session id; anything else reads as a diary.
SESSION_OK = [
    "session of its own", "the whole session", "tmux session",
    "prober's session", "session and send time",
    "another session of this prober", "other_session", "TLS session",
]
SKIP_DIRS = {".git", "build", "corpus", "vmlinux", "node_modules"}
SRC_EXT = (".c", ".h", ".sh", ".py", ".pl", ".mjs", ".rst", ".yml",
           ".yaml", ".conf", ".service", ".txt", ".re")


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def norm(text):
    text = text.replace("``", "").replace("**", "").replace("\\", "")
    return " ".join(text.split()).casefold()


def titles(path):
    lines = read(path).splitlines()
    out = set()
    for i in range(len(lines) - 1):
        t, u = lines[i].strip(), lines[i + 1].rstrip()
        if (t and u and len(set(u)) == 1 and u[0] in "=-~^*+#\"'`:."
                and len(u) >= len(t) and not set(t) <= set(u[0])):
            out.add(norm(t))
    return out


def doc_path(prefix, name):
    prefix = prefix or ""
    for cand in (os.path.join(repo, prefix, name + ".rst")
                 if prefix.startswith("Documentation") else None,
                 os.path.join(repo, "Documentation", name + ".rst"),
                 os.path.join(repo, "Documentation", "man", name + ".rst")):
        if cand and os.path.isfile(cand):
            return cand
    return None


def sources():
    for top, dirs, files in os.walk(repo):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for f in sorted(files):
            p = os.path.join(top, f)
            if f.endswith(SRC_EXT) or f in ("README", "Makefile", "Kbuild") \
                    or os.access(p, os.X_OK):
                yield p


def strip_comment(line):
    # a comment's leader (" * ", "# ", "// ") goes, so that a reference
    # wrapped over two comment lines reads as one
    return re.sub(r"^\s*(?:/\*+|\*+|//+|#+)?\s?", "", line)


REF = re.compile(r'((?:Documentation/)?(?:man/)?)?\b([A-Za-z0-9_-]+)\.rst,?\s+"([^"]+)"')


def check_refs():
    bad, n = [], 0
    cache = {}
    for p in sources():
        rel = os.path.relpath(p, repo)
        if rel == "selftests/host/test_docs.sh":
            continue
        try:
            text = " ".join(strip_comment(l) for l in read(p).splitlines())
        except OSError:
            continue
        for m in REF.finditer(text):
            n += 1
            prefix, name, title = m.group(1), m.group(2), norm(m.group(3))
            doc = doc_path(prefix, name)
            if not doc:
                bad.append(f'{rel}: {name}.rst "{m.group(3)}": no such document')
                continue
            if doc not in cache:
                cache[doc] = titles(doc)
            ok = any(t == title or (t.startswith(title) and not t[len(title)].isalnum())
                     for t in cache[doc])
            if not ok:
                bad.append(f'{rel}: {name}.rst "{m.group(3)}": no such section')
    return n, bad


def check_arch():
    p = os.path.join(repo, "Documentation", "architecture.rst")
    if not os.path.isfile(p):
        return 0, ["Documentation/architecture.rst is missing"]
    # the files are named as literals (``path``), documents also in words
    text = read(p)
    names = re.findall(r"``([^`\s]+/[^`\s]*)``", text)
    names += re.findall(r"\b(Documentation/[A-Za-z0-9_./-]+\.rst)\b", text)
    paths = sorted(set(q for q in names if not q.startswith("/")))
    bad = [q for q in paths if not glob.glob(os.path.join(repo, q))]
    return len(paths), [f"{q}: not in the tree" for q in bad]


HASH = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
DIARY = re.compile(r"\b(?:sessions?|(?:first|second|third|fourth|fifth|sixth|"
                   r"seventh|eighth|ninth|tenth|eleventh|twelfth|last|previous)"
                   r" (?:commit|run of the project))\b", re.I)


def check_diary():
    files = [os.path.join(repo, "README")]
    for top, dirs, fs in os.walk(os.path.join(repo, "Documentation")):
        dirs.sort()
        files += [os.path.join(top, f) for f in sorted(fs)]
    bad = []
    for p in files:
        if not os.path.isfile(p):
            continue
        rel = os.path.relpath(p, repo)
        text = " ".join(read(p).split())
        for ok in SESSION_OK:
            text = text.replace(ok, " ")
        for m in DIARY.finditer(text):
            bad.append(f"{rel}: ...{text[max(0, m.start() - 40):m.end() + 20]}...")
        for m in HASH.finditer(text):
            bad.append(f"{rel}: commit hash? {m.group(0)}")
    return len(files), bad


def report(desc, n, bad):
    print(("fail" if bad else "ok") + "\t" + desc.format(n=n))
    for b in bad[:40]:
        print("  " + b)


report("every .rst \"Section\" reference names a section ({n} references)", *check_refs())
report("every file Documentation/architecture.rst names exists ({n} paths)", *check_arch())
report("no session diary or commit hash in Documentation/ and README ({n} files)", *check_diary())
p = os.path.join(repo, "Documentation", "performance.rst")
lines = len(read(p).splitlines()) if os.path.isfile(p) else 0
report("Documentation/performance.rst is at most {n} lines", PERF_MAX,
       [] if 0 < lines <= PERF_MAX else [f"{lines} lines"])
EOF
) || { ktap_begin 1; ktap_fail "the checker ran" "$results"; ktap_end; }

ktap_begin 4
desc= findings=
emit() {
	[[ -n $desc ]] || return 0
	if [[ $status == ok ]]; then ktap_pass "$desc"; else ktap_fail "$desc" "$findings"; fi
}
while IFS= read -r line; do
	if [[ $line == "  "* ]]; then
		findings+="${findings:+$'\n'}${line#  }"
	else
		emit
		status=${line%%$'\t'*} desc=${line#*$'\t'} findings=
	fi
done <<<"$results"
emit
ktap_end
