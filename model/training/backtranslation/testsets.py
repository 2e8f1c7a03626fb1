"""The files of the Tatoeba-Challenge test sets (github:Helsinki-NLP/OPUS-MT-testsets): which hold monolingual
sentences for the pool, which are English–Chinese test sets to keep out of it, and their lines.

The repository is read where it lies: a folder (a checkout, or small made-up files in the tests) or the bare git
directory `fetch` brings (read with git, nothing exported). Every file read is hashed into the log.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path, PurePosixPath

REPOSITORY = "Helsinki-NLP/OPUS-MT-testsets"  # on GitHub; CC-BY 2.0 FR, as Tatoeba
POOL_UNDER = "datasets/helsinki_nlp/tatoeba/testsets"
POOL_VERSION = "v2021-08-07"
# A file's extension names its language (ISO 639-3, a script after "_", "1"/"2" in same-language pairs such as
# eng-eng); a `.labels` file beside it names each line's own, where a macro-language file mixes several ("zho":
# Mandarin, Cantonese, Wu, Classical Chinese, in Han, Latin or Bopomofo script).
POOL_EXTENSIONS = {"en": ("eng", "eng1", "eng2"), "zh": ("zho", "zho1", "zho2", "cmn", "cmn_Hans", "cmn_Hant")}
POOL_LABELS = {"en": {"eng"}, "zh": {"cmn", "cmn_Hans", "cmn_Hant"}}  # Mandarin in Han characters: the corpus's
ENGLISH_CODES = {"eng", "en"}
# Every Chinese language's code: a pair of English with any of them is an English–Chinese test set, kept out.
CHINESE_CODES = {"zho", "zh", "cmn", "yue", "wuu", "lzh", "gan", "hak", "nan", "cjy", "hsn", "cdo", "cpx", "czh",
                 "czo", "mnp"}


class Tree:
    """A repository's files, from a folder or from a bare git directory (its HEAD)."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.git = (self.root / "objects").is_dir() and (self.root / "HEAD").is_file()
        self.commit = self._git("rev-parse", "HEAD").decode().strip() if self.git else None
        self.blobs = self._listing()
        self.hashes: dict[str, str] = {}  # path → sha256 of every file read

    def _git(self, *args: str) -> bytes:
        return subprocess.run(["git", f"--git-dir={self.root}", *args], check=True, capture_output=True).stdout

    def _listing(self) -> dict[str, str]:
        if not self.git:
            return {p.relative_to(self.root).as_posix(): "" for p in sorted(self.root.rglob("*")) if p.is_file()}
        entries = self._git("ls-tree", "-r", "-z", "HEAD").decode("utf-8").split("\0")
        return dict(sorted((e.split("\t", 1)[1], e.split()[2]) for e in entries if e and e.split()[1] == "blob"))

    def paths(self) -> list[str]:
        return list(self.blobs)

    def read(self, path: str) -> bytes:
        data = self._git("cat-file", "blob", self.blobs[path]) if self.git else (self.root / path).read_bytes()
        self.hashes[path] = hashlib.sha256(data).hexdigest()
        return data

    def lines(self, path: str, labels: set[str] | None = None) -> list[str]:
        """The file's lines; with `labels`, only those whose `.labels` line is one of them (all where it has none)."""
        lines = self.read(path).decode("utf-8").splitlines()
        if labels is None or path + ".labels" not in self.blobs:
            return lines
        tags = self.read(path + ".labels").decode("utf-8").splitlines()
        if len(tags) != len(lines):
            raise ValueError(f"{path}: {len(lines)} lines but {len(tags)} labels")
        return [line for line, tag in zip(lines, tags) if tag.strip() in labels]


def code_language(code: str) -> str | None:
    """"en", "zh" or None for a file extension or half of a pair's folder name ("cmn_Hans" → "zh", "eng1" → "en")."""
    base = code.split("_")[0].rstrip("12")
    return "en" if base in ENGLISH_CODES else "zh" if base in CHINESE_CODES else None


def pool_files(tree: Tree, language: str, under: str = POOL_UNDER, version: str = POOL_VERSION) -> list[str]:
    """The test-set files of one version whose sentences are in `language` ("en", "zh"): the pool's sources."""
    return [p for p in tree.paths() if p.startswith(under.rstrip("/") + "/")
            and PurePosixPath(p).name in {f"tatoeba-test-{version}.{ext}" for ext in POOL_EXTENSIONS[language]}]


def en_zh_test_files(tree: Tree) -> dict[str, list[str]]:
    """Every file anywhere in the repository whose folder pairs English with a Chinese language ("eng-zho",
    "cmn_Hans-eng", "en-zh"; every version, every test set in it), by the language of its extension."""
    found: dict[str, list[str]] = {"en": [], "zh": []}
    for path in tree.paths():
        parts = PurePosixPath(path)
        pair = parts.parent.name.split("-")
        if len(pair) != 2 or {code_language(pair[0]), code_language(pair[1])} != {"en", "zh"}:
            continue
        language = code_language(parts.suffix.lstrip("."))
        if language is not None:
            found[language].append(path)
    return found
