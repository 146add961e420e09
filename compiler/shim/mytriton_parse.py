"""mytriton parser shim: prints the AST of a Python file for mytritonc.

It parses the file with the standard library's ast module and prints a
generic serialization of the whole module. It knows nothing about mytriton
and never imports or executes the file it reads.

Output (stdout), version 1:
    mytriton-ast 1
    <value>
where a value is one of
    N <kind> <line> <col> <end_line> <end_col> <nfields> (<name> <value>)*
    L <count> <value>*
    S <nbytes> <bytes>          UTF-8 text, exactly nbytes after one space
    I <decimal>                 an int of any size
    F <repr>                    a float: repr() (inf, -inf, nan included)
    C <real repr> <imag repr>   a complex constant
    Y <nbytes> <bytes>          a bytes constant, raw
    B 0 | B 1                   a bool
    Z                           None
    E                           Ellipsis
Positions: lines 1-based, columns 0-based UTF-8 byte offsets, as in the ast
module; -1 where a node has none. On failure it prints instead
    mytriton-ast-error <line> <col> <nbytes> <message>
(same position convention, 0 0 when there is none) and exits with status 1.
"""

import gc
import posix
import sys

# The compiled-in _ast module, not the ast package: importing ast pulls in
# enum, collections and contextlib, which would triple the start-up time.
import _ast

VERSION = 1

# The largest file the shim reads (mytritonc's frontend/shim.c reads no
# larger): Python's parser and the AST take about 230 times a file's size
# in memory and seconds per megabyte.
MAX_SOURCE_BYTES = 2 << 20


def emit_text(out, tag, data):
    out.append("%s %d " % (tag, len(data)))
    out.append(data)
    out.append("\n")


def emit(out, value):
    if isinstance(value, _ast.AST):
        fields = [(name, getattr(value, name, None)) for name in value._fields]
        # Normalize across Python versions: Num/Str/... are Constant since
        # 3.8; Index/ExtSlice wrappers (before 3.9) are dropped.
        line = getattr(value, "lineno", -1)
        col = getattr(value, "col_offset", -1)
        end_line = getattr(value, "end_lineno", None)
        end_col = getattr(value, "end_col_offset", None)
        if end_line is None:
            end_line = -1
        if end_col is None:
            end_col = -1
        out.append("N %s %d %d %d %d %d\n" % (type(value).__name__, line, col,
                                               end_line, end_col, len(fields)))
        for name, field in fields:
            out.append(name)
            out.append(" ")
            emit(out, field)
    elif isinstance(value, list):
        out.append("L %d\n" % len(value))
        for item in value:
            emit(out, item)
    elif value is None:
        out.append("Z\n")
    elif value is Ellipsis:
        out.append("E\n")
    elif isinstance(value, bool):
        out.append("B %d\n" % int(value))
    elif isinstance(value, int):
        out.append("I %d\n" % value)
    elif isinstance(value, float):
        out.append("F %r\n" % value)
    elif isinstance(value, complex):
        out.append("C %r %r\n" % (value.real, value.imag))
    elif isinstance(value, str):
        emit_text(out, "S", value.encode("utf-8", "surrogatepass").decode("latin-1"))
    elif isinstance(value, bytes):
        emit_text(out, "Y", value.decode("latin-1"))
    else:
        emit_text(out, "S", repr(value).encode("utf-8").decode("latin-1"))


def walk(tree):
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for name in node._fields:
            field = getattr(node, name, None)
            if isinstance(field, _ast.AST):
                stack.append(field)
            elif isinstance(field, list):
                stack.extend(item for item in field if isinstance(item, _ast.AST))


def unwrap_old_nodes(tree):
    """Python 3.8: Index wraps subscript values; drop the wrapper."""
    index = getattr(_ast, "Index", None)
    if index is None or not isinstance(index, type):
        return tree
    for node in walk(tree):
        if isinstance(node, _ast.Subscript) and isinstance(node.slice, index):
            node.slice = node.slice.value
    return tree


# The C reader accepts values nested 2000 deep; a node's fields sit one
# level below it and list items two. A long chain such as a + b + ... + z
# nests one level per operator.
MAX_DEPTH = 1900


def check_depth(tree):
    """Fails at the first node nested deeper than the reader accepts, at
    the position of the statement that holds it."""
    stack = [(tree, 0, (0, 0))]
    while stack:
        node, depth, where = stack.pop()
        if isinstance(node, _ast.stmt):
            where = (node.lineno, node.col_offset)
        if depth > MAX_DEPTH:
            fail(where[0], where[1], "the code is nested more than %d levels deep (a chain of thousands of "
                                     "operators? split it with intermediate variables)" % MAX_DEPTH)
        for name in node._fields:
            field = getattr(node, name, None)
            if isinstance(field, _ast.AST):
                stack.append((field, depth + 1, where))
            elif isinstance(field, list):
                stack.extend((item, depth + 2, where) for item in field if isinstance(item, _ast.AST))


def fail(line, col, message):
    data = message.encode("utf-8", "replace")
    out = sys.stdout.buffer
    out.write(b"mytriton-ast-error %d %d %d " % (line, col, len(data)))
    out.write(data)
    out.write(b"\n")
    out.flush()
    sys.exit(1)


def byte_column(source, line, char_offset):
    """SyntaxError.offset counts characters (1-based); we report bytes."""
    if not line or not char_offset:
        return 0
    lines = source.splitlines()
    if line - 1 >= len(lines):
        return max(char_offset - 1, 0)
    text = lines[line - 1]
    prefix = text[:max(char_offset - 1, 0)]
    return len(prefix.encode("utf-8", "surrogatepass"))


def read_source(path):
    """The file's bytes: a regular file (a FIFO or a device would block or
    never end) of at most MAX_SOURCE_BYTES."""
    try:
        fd = posix.open(path, posix.O_RDONLY | posix.O_NONBLOCK | getattr(posix, "O_CLOEXEC", 0))
    except OSError as error:
        fail(0, 0, "cannot read file: %s" % (error.strerror or error))
    try:
        mode = posix.fstat(fd).st_mode
        if mode & 0o170000 != 0o100000:
            fail(0, 0, "cannot read file: it is not a regular file")
        chunks, size = [], 0
        while size <= MAX_SOURCE_BYTES:
            chunk = posix.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        fail(0, 0, "cannot read file: %s" % (error.strerror or error))
    finally:
        posix.close(fd)
    if size > MAX_SOURCE_BYTES:
        fail(0, 0, "the file is larger than %d MiB, the most mytritonc reads" % (MAX_SOURCE_BYTES >> 20))
    return b"".join(chunks)


def main(argv):
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    # room for ast construction of long chains (about three levels per unit
    # of the limit) and for emit() down to MAX_DEPTH
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    # the tree holds no cycles worth collecting: the collector's passes over
    # hundreds of thousands of nodes cost a third of a large file's time
    gc.disable()
    if len(argv) != 2:
        fail(0, 0, "usage: mytriton_parse.py FILE.py")
    path = argv[1]
    raw = read_source(path)
    try:
        source = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[:error.start].count(b"\n") + 1
        col = error.start - (raw.rfind(b"\n", 0, error.start) + 1)
        fail(line, col, "file is not valid UTF-8")
    if source.startswith("\ufeff"):
        source = source[1:]
    try:
        tree = compile(source, path, "exec", _ast.PyCF_ONLY_AST)
    except SyntaxError as error:
        line = error.lineno or 0
        col = byte_column(source, line, error.offset)
        fail(line, col, "Python syntax error: %s" % error.msg)
    except RecursionError:
        fail(0, 0, "Python cannot parse the file: it is nested too deeply (a chain of tens of thousands of "
                   "operators?)")
    except (ValueError, MemoryError) as error:
        fail(0, 0, "Python cannot parse the file: %s" % (type(error).__name__))
    check_depth(tree)
    out = ["mytriton-ast %d\n" % VERSION]
    try:
        emit(out, unwrap_old_nodes(tree))
    except RecursionError:
        fail(0, 0, "the file is nested too deeply to parse")
    sys.stdout.buffer.write("".join(out).encode("latin-1"))
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    main(sys.argv)
