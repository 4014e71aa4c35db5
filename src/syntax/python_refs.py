"""Reference kinds and function extents for Python, from the ast module (syntax only).

Reads NUL-separated file paths on stdin; writes one JSON line per file:
{"path": ..., "kinds": [[line, utf16_column, kind], ...], "defs": [[name_line,
name_column, start_line, start_column, end_line, end_column], ...], "modules":
[[line, utf16_column, module], ...]} with 0-based lines and UTF-16 columns.
kind: 1 call, 2 type, 3 import, 4 write (reads are not listed).
modules: each name an import statement binds, and the module it names as
written (`thing` in `from .pkg import thing`: ".pkg"; `am` in `import a.m as
am`: "a.m").
defs: the defs of a name defined more than once in one scope: an overload group
(`@overload` stubs and their implementation) or a function defined in each
branch of an `if` or `try` (`if WIN: def getchar ... else: def getchar`), each
its name and its extent from its first decorator to its end.
A file that does not parse is written with "error" instead of "kinds".
"""
import re
import ast
import json
import sys

CALL, TYPE, IMPORT, WRITE = 1, 2, 3, 4


def utf16_column(line_bytes, byte_col):
    return len(line_bytes[:byte_col].decode("utf-8", "replace").encode("utf-16-le")) // 2


class Collector(ast.NodeVisitor):
    def __init__(self, lines):
        self.lines = lines
        self.out = []
        self.defs = []
        self.modules = []
        self.in_type = 0

    def add(self, lineno, byte_col, kind):
        line_bytes = self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else b""
        self.out.append([lineno - 1, utf16_column(line_bytes, byte_col), kind])

    def name_position(self, node):
        """Where the name of a Name or Attribute node starts."""
        if isinstance(node, ast.Attribute):
            return node.end_lineno, node.end_col_offset - len(node.attr.encode("utf-8"))
        return node.lineno, node.col_offset

    def kind_of(self, node):
        if isinstance(getattr(node, "ctx", None), (ast.Store, ast.Del)):
            return WRITE
        return TYPE if self.in_type else None

    def visit_Name(self, node):
        kind = self.kind_of(node)
        if kind:
            self.add(node.lineno, node.col_offset, kind)

    def visit_Attribute(self, node):
        kind = self.kind_of(node)
        if kind:
            self.add(*self.name_position(node), kind)
        self.visit(node.value)

    def visit_Call(self, node):
        func = node.func
        if isinstance(func, (ast.Name, ast.Attribute)):
            self.add(*self.name_position(func), CALL)
            if isinstance(func, ast.Attribute):
                self.visit(func.value)
        else:
            self.visit(func)
        for arg in node.args:
            self.visit(arg)
        for kw in node.keywords:
            self.visit(kw.value)

    def visit_annotation(self, node):
        if node is not None:
            self.in_type += 1
            self.visit(node)
            self.in_type -= 1

    def visit_arg(self, node):
        self.visit_annotation(node.annotation)

    def visit_AnnAssign(self, node):
        self.visit(node.target)
        self.visit_annotation(node.annotation)
        if node.value is not None:
            self.visit(node.value)

    def column(self, lineno, byte_col):
        line_bytes = self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else b""
        return utf16_column(line_bytes, byte_col)

    def add_def(self, node):
        line_bytes = self.lines[node.lineno - 1] if 0 < node.lineno <= len(self.lines) else b""
        name = re.compile(rb"(?:async\s+)?def\s+" + re.escape(node.name.encode("utf-8")) + rb"\b").match(line_bytes, node.col_offset)
        if not name:
            return  # the name is on another line than `def`: too rare to chase
        name_col = name.end() - len(node.name.encode("utf-8"))
        start_line, start_col = node.lineno, node.col_offset
        if node.decorator_list:
            first = node.decorator_list[0]
            start_line, start_col = first.lineno, max(first.col_offset - 1, 0)  # its `@`
        self.defs.append([
            node.lineno - 1, self.column(node.lineno, name_col),
            start_line - 1, self.column(start_line, start_col),
            node.end_lineno - 1, self.column(node.end_lineno, node.end_col_offset),
        ])

    def redefinition_groups(self, body):
        """The defs of each name `body` defines more than once, in its blocks too (not in nested scopes)."""
        groups = {}
        pending = list(body)
        while pending:
            stmt = pending.pop(0)
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                groups.setdefault(stmt.name, []).append(stmt)
            elif not isinstance(stmt, ast.ClassDef):
                # if/else, try/except/finally, with, for, while, match: blocks of the same scope.
                for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                    for child in getattr(stmt, field, None) or []:
                        # An `except` clause or a `case` holds its statements; the other fields are statements.
                        block = isinstance(child, (ast.ExceptHandler, getattr(ast, "match_case", ())))
                        pending.extend(child.body if block else [child])
        for defs in groups.values():
            if len(defs) > 1:
                for d in defs:
                    self.add_def(d)

    def visit_Module(self, node):
        self.redefinition_groups(node.body)
        for stmt in node.body:
            self.visit(stmt)

    def visit_FunctionDef(self, node):
        self.redefinition_groups(node.body)
        for decorator in node.decorator_list:
            self.decorator(decorator)
        self.visit(node.args)
        self.visit_annotation(node.returns)
        for stmt in node.body:
            self.visit(stmt)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.redefinition_groups(node.body)
        for decorator in node.decorator_list:
            self.decorator(decorator)
        for base in node.bases:
            self.visit_annotation(base)
        for kw in node.keywords:
            self.visit(kw.value)
        for stmt in node.body:
            self.visit(stmt)

    def decorator(self, node):
        # A decorator is applied by calling it.
        if isinstance(node, (ast.Name, ast.Attribute)):
            self.add(*self.name_position(node), CALL)
            if isinstance(node, ast.Attribute):
                self.visit(node.value)
        else:
            self.visit(node)

    def import_names(self, node):
        # Every name on an import statement is an import: modules and aliases.
        self.bound_modules(node)
        first = node.lineno
        last = node.end_lineno or node.lineno
        for lineno in range(first, last + 1):
            line = self.lines[lineno - 1].decode("utf-8", "replace")
            start = node.col_offset if lineno == first else 0
            i = start
            while i < len(line):
                ch = line[i]
                if ch == "#":
                    break
                if ch.isidentifier() or ch == ".":
                    j = i
                    while j < len(line) and (line[j].isidentifier() or line[j].isdigit() or line[j] == "."):
                        j += 1
                    word = line[i:j]
                    if word not in ("import", "from", "as"):
                        self.out.append([lineno - 1, len(line[:i].encode("utf-16-le")) // 2, IMPORT])
                        # Dotted names: each part can be its own occurrence.
                        offset = i
                        for part in word.split(".")[:-1]:
                            offset += len(part) + 1
                            if offset < j:
                                self.out.append([lineno - 1, len(line[:offset].encode("utf-16-le")) // 2, IMPORT])
                    i = j
                else:
                    i += 1

    visit_Import = import_names
    visit_ImportFrom = import_names

    def bound_modules(self, node):
        """The names the statement binds (`asname`, else `name`; `*` binds none), each with its module."""
        for alias in node.names:
            if alias.name == "*" or not hasattr(alias, "lineno"):
                continue
            if isinstance(node, ast.ImportFrom):
                module = "." * node.level + (node.module or "")
            else:
                module = alias.name
            if alias.asname:
                # `name as asname` spans the alias; the bound name ends it.
                lineno, byte_col = alias.end_lineno, alias.end_col_offset - len(alias.asname.encode("utf-8"))
            else:
                lineno, byte_col = alias.lineno, alias.col_offset
            line_bytes = self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else b""
            self.modules.append([lineno - 1, utf16_column(line_bytes, byte_col), module])


def main():
    data = sys.stdin.buffer.read().split(b"\0")
    for raw in data:
        if not raw:
            continue
        path = raw.decode("utf-8", "surrogateescape")
        try:
            with open(path, "rb") as f:
                source = f.read()
            tree = ast.parse(source, filename=path)
            collector = Collector(source.split(b"\n"))
            collector.visit(tree)
            record = {"path": path, "kinds": collector.out, "defs": collector.defs, "modules": collector.modules}
        except (SyntaxError, ValueError, OSError, RecursionError) as error:
            record = {"path": path, "error": str(error).splitlines()[0] if str(error) else type(error).__name__}
        sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
