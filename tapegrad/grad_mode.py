"""Grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode (thread-local).

While ``tapegrad.trace`` records, grad mode off does not stop recording: an op on a traced
value must replay at every point, so it records as usual and its result carries no gradient
(ops/control.py's _NoGradRows); the mode user code sees (``is_grad_enabled``) is kept on
the tracing tape.
"""
import contextlib
import functools
import inspect

from ._state import INFERENCE_THREADS, state


def _mode():
    tape = state.tracing
    return state.grad_enabled if tape is None else tape.grad_mode


def _set(enabled):
    tape = state.tracing
    if tape is None:
        state.grad_enabled = enabled
    else:
        tape.set_grad_mode(enabled)


class _GradMode:
    """A context manager that is also a decorator, as PyTorch's are."""

    _enabled = True

    def __new__(cls, fn=None):
        """``@no_grad`` bare (PyTorch 2 takes it) decorates ``fn`` as ``@no_grad()`` does."""
        self = super().__new__(cls)
        return self if fn is None else self(fn)

    def __enter__(self):
        self._prev = prev = _mode()
        try:
            _set(self._enabled)
        except BaseException:  # (an interrupt here must not leave the mode changed)
            _set(prev)
            raise

    def __exit__(self, *exc):
        _set(self._prev)
        return False

    def _fresh(self):
        """A new manager of the same mode, for one call of a decorated function."""
        return self.__class__()

    def __call__(self, fn):
        return _decorate(self._fresh, fn)


def _decorate(fresh, fn):
    """``fn`` run under a fresh manager per call; a generator function gets the mode around
    each resumed step and the caller's mode back at each yield, as PyTorch's decorators."""
    if inspect.isgeneratorfunction(fn):
        @functools.wraps(fn)
        def generator(*args, **kwargs):
            gen = fn(*args, **kwargs)
            try:
                with fresh():
                    response = gen.send(None)
                while True:
                    try:
                        request = yield response
                    except GeneratorExit:
                        with fresh():
                            gen.close()
                        raise
                    except BaseException as exc:
                        with fresh():
                            response = gen.throw(exc)
                    else:
                        with fresh():
                            response = gen.send(request)
            except StopIteration as stop:
                return stop.value

        return generator

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with fresh():
            return fn(*args, **kwargs)

    return wrapper


class no_grad(_GradMode):
    """Record nothing inside: results do not require grad.

    >>> import tapegrad as tg
    >>> x = tg.tensor(1.0, requires_grad=True)
    >>> with tg.no_grad():
    ...     (x * 2).requires_grad
    False
    """

    _enabled = False


class enable_grad(_GradMode):
    """Turn recording back on inside a no_grad region."""

    _enabled = True


class set_grad_enabled(_GradMode):
    """Set grad mode on or off; works as a function, context manager or decorator."""

    def __new__(cls, mode):
        return object.__new__(cls)

    def __init__(self, mode):
        self._enabled = bool(mode)
        self._prev = _mode()
        _set(self._enabled)

    def __enter__(self):
        pass  # already set in __init__, as PyTorch does

    def __call__(self, fn):
        _set(self._prev)  # (as a decorator it sets the mode only while fn runs)
        mode = self._enabled
        return _decorate(lambda: set_grad_enabled(mode), fn)


def is_inference_mode_enabled():
    """True inside ``inference_mode()`` (and not in an ``inference_mode(False)`` within)."""
    return state.inference


class inference_mode(_GradMode):
    """Like no_grad (tapegrad's no_grad already records nothing, so it is as cheap).
    Tensors made inside answer ``is_inference()`` True and keep PyTorch's restrictions: no
    in-place change outside the mode, not saved for a backward (ops/_record.py slot)."""

    def __new__(cls, mode=True):
        self = object.__new__(cls)
        if callable(mode):  # @inference_mode bare
            return cls(True)(mode)
        return self

    def __init__(self, mode=True):
        self._enabled = not mode

    def __enter__(self):
        super().__enter__()
        self._prev_inference = state.inference
        _set_inference(not self._enabled)

    def __exit__(self, *exc):
        _set_inference(self._prev_inference)
        return super().__exit__(*exc)

    def _fresh(self):
        return inference_mode(not self._enabled)


def _set_inference(on):
    """Set this thread's inference mode, and the process-wide count of threads in it that
    tensor._leaf reads before it looks at the thread-local flag (one list read per leaf)."""
    if on != state.inference:
        INFERENCE_THREADS[0] += 1 if on else -1
    state.inference = on


def seen_mode():
    """The grad mode user code sees (while tracing, f's), not noted as read by f (tapegrad's
    own checks that follow PyTorch's grad mode: ops/views.py)."""
    return _mode()


def is_grad_enabled():
    """True when ops record onto the tape in this thread (while tracing: the mode f sees,
    and the trace notes that f read it: replay/__init__.py's Compiled keys on it)."""
    if state.tracing is not None:
        state.tracing.__dict__["read_mode"] = True
    return _mode()


@contextlib.contextmanager
def grad_mode_scope(enabled):
    """Grad mode ``enabled`` inside, restored on the way out whatever happens: a
    KeyboardInterrupt at any bytecode in between leaves the thread's mode as it was
    (``with set_grad_enabled(m):`` sets the mode in its constructor, before ``with``
    owns it).  For tapegrad's own code around user callbacks (hooks)."""
    prev = _mode()
    try:
        _set(enabled)
        yield
    finally:
        _set(prev)


def keeps_grad_mode(fn):
    """``fn`` (backward, grad, Function.apply) leaves the caller's grad mode as it found
    it, even when an exception (a KeyboardInterrupt at any line, say) leaves it mid-way
    through a scope that changed it."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        prev = _mode()
        try:
            return fn(*args, **kwargs)
        finally:
            if _mode() != prev:
                _set(prev)
    return wrapper
