"""PyTorch's exact words in ``str(e)``, tapegrad's context beside them.

Programs written for PyTorch print or match ``str(e)``, so a raise site keeps PyTorch's
message as it is and puts tapegrad's own detail (the op, the shapes, the fix) in an
exception note, which a traceback shows after the message. Python 3.10 has no notes: there
the detail is appended to the message in parentheses, as before notes existed."""
import sys

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
