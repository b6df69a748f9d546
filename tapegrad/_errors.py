"""PyTorch's exact words in ``str(e)``, tapegrad's context beside them.

Programs written for PyTorch print or match ``str(e)``, so a raise site keeps PyTorch's
message as it is and puts tapegrad's own detail (the op, the shapes, the fix) in an
exception note, which a traceback shows after the message. Python 3.10 has no notes: there
the detail is appended to the message in parentheses, as before notes existed."""
import re
import sys

from ._torch_words import FUNCTIONS, METHODS  # noqa: F401 (the tables wrappers pass)

NOTES = sys.version_info >= (3, 11)


def with_note(exc, context):
    """``exc`` (PyTorch's words) with tapegrad's ``context`` as its note; returns ``exc``
    for ``raise with_note(RuntimeError(msg), context)``."""
    if NOTES:
        exc.add_note(context)
    else:
        exc.args = (f"{exc.args[0]} ({context})", *exc.args[1:])
    return exc


def missing(op, *names):
    """PyTorch's TypeError for a call of ``op`` without its required arguments ``names``
    (its argument parser's words, "arguments" for one name, "argument" for more)."""
    s = "s" if len(names) == 1 else ""
    quoted = ", ".join(f'"{n}"' for n in names)
    return TypeError(f"{op}() missing {len(names)} required positional argument{s}: {quoted}")


def no_overload(op, *signatures):
    """PyTorch's TypeError for ``op()`` called with no arguments where it has several
    signatures (each a string such as ``"tuple of ints size"``)."""
    lines = "".join(f" * ({s})\n" for s in signatures)
    return TypeError(f"{op}() received an invalid combination of arguments - got (), but "
                     f"expected one of:\n{lines}")


# the code of the wrappers that pass a call on to their op as it is (ops/out.py, ops/_record.py)
WRAPPERS = set()
_PYTHONS = re.compile(r"\(\) missing \d+ required positional arguments?: ")


def parser_words(exc, table, op, given, kwargs):
    """Raise PyTorch's TypeError for ``op`` (a key of ``table``: METHODS or FUNCTIONS, from
    tests/torch_words.py) called with ``given`` positional arguments and ``kwargs``, where
    ``exc`` is Python's own for a call of the function itself that misses arguments (it
    names tapegrad's parameters: the note keeps it); return otherwise, for the caller's
    ``raise``. Called in an ``except TypeError`` of a wrapper the op has anyway (ops/out.py):
    the call that succeeds pays nothing."""
    tb = exc.__traceback__.tb_next
    while tb is not None:  # (through wrappers that pass the call on as it is)
        if tb.tb_frame.f_code not in WRAPPERS:
            return  # raised inside the op
        tb = tb.tb_next
    if not _PYTHONS.search(str(exc)):
        return  # another TypeError of the call
    words = table.get(op)
    if isinstance(words, tuple) and not kwargs and given < len(words):
        new = missing(op, *words[given:])  # one signature: the required ones not given
    elif isinstance(words, str) and not given and not kwargs:
        new = TypeError(words)
    else:
        return
    raise with_note(new, f"{op}(): {str(exc).split('() ', 1)[1]}") from None


def method_words(exc, op, args, kwargs):
    """parser_words for a wrapper that is method ``op`` itself, unless another wrapper (which
    asks itself) called it."""
    if sys._getframe(2).f_code not in WRAPPERS:
        parser_words(exc, METHODS, op, len(args) - 1, kwargs)
