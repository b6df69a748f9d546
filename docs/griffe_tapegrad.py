"""griffe extensions for the API pages (mkdocs.yml loads them; nothing here is shipped).

- ``DoctestFences``: tapegrad's docstrings hold bare doctests (``>>> x = ...`` then the
  output), which Markdown would read as nested block quotes; each run of doctest lines, up
  to the next blank line, is wrapped in a ``pycon`` code fence. The docstrings stay plain
  doctests.
- ``FactoryFunctions``: many ops are made by a factory (``exp = make_unary(...)``) and
  bound to ``Tensor`` from a table, so griffe finds them only by importing tapegrad, as
  aliases of a function local to the factory (or of a lambda, or named for its op where
  no module holds that name), which it cannot resolve.
  Each such alias becomes a function documented from the live object: its signature and
  its docstring.
- ``PublicMembers``: a module's members are the names in its ``__all__``; a module
  without one shows the functions and classes it defines and the functions it
  re-exports, not its module-level values or what it imports for its own use.
- ``CachedMembers``: once the package is loaded, a class's inherited members and an
  alias's members are made once, not on every look-up (griffe makes a new alias for
  each member at each access: ``tapegrad.Tensor`` is an alias of a class of ~800 members,
  looked up for each of its ~800 headings, which took most of the build's two minutes).
"""
import importlib
import inspect
import re

import griffe

_PROMPT = re.compile(r"^(\s*)>>> ")


def fence_doctests(text):
    """``text`` with each doctest block (a ``>>>`` line, up to a blank line) fenced."""
    out = []
    indent = None
    for line in text.splitlines():
        if indent is None:
            m = _PROMPT.match(line)
            if m:
                indent = m.group(1)
                out.append(f"{indent}```pycon")
        elif not line.strip():
            out.append(f"{indent}```")
            indent = None
        out.append(line)
    if indent is not None:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctests of every docstring griffe loads."""

    def on_instance(self, *, obj, **kwargs):
        if obj.docstring is not None and ">>> " in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)


def _parameters(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return griffe.Parameters()
    return griffe.Parameters(*(
        griffe.Parameter(
            p.name, kind=griffe.ParameterKind(p.kind.description),
            default=None if p.default is inspect.Parameter.empty else repr(p.default))
        for p in sig.parameters.values()))


def _resolves(path):
    """Whether ``path`` names a live object (a factory-made function named for its op,
    make_unary's ``exp``, names an attribute its module does not have)."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for p in parts[i:]:
                obj = getattr(obj, p)
        except AttributeError:
            return False
        return True
    return False


def _materialize(parent, live):
    for name, member in list(parent.members.items()):
        if not member.is_alias:
            continue
        target = member.target_path
        # factory-made (<locals>, <lambda>, or named for its op where no module holds it) or
        # bound from a floor above under a private name (Tensor.backward is
        # autograd.engine._tensor_backward)
        if not ("<" in target or target.rsplit(".", 1)[-1].startswith("_")
                or not _resolves(target)):
            continue
        fn = getattr(live, name, None)
        if not callable(fn):
            continue
        doc = inspect.getdoc(fn)
        parent.set_member(name, griffe.Function(
            name, parameters=_parameters(fn),
            docstring=griffe.Docstring(fence_doctests(doc)) if doc else None))


class FactoryFunctions(griffe.Extension):
    """Document factory-made functions (module members and Tensor methods) in place."""

    def on_module_members(self, *, node, mod, **kwargs):
        if isinstance(node, griffe.ObjectNode):
            _materialize(mod, node.obj)

    def on_class_members(self, *, node, cls, **kwargs):
        if isinstance(node, griffe.ObjectNode):
            _materialize(cls, node.obj)


def _imported_for_own_use(live, name):
    """A class, module or value imported by a module without ``__all__`` (its functions,
    like ``nn.functional.sigmoid = ops.sigmoid``, are part of its API)."""
    return not inspect.isroutine(getattr(live, name, None))


class PublicMembers(griffe.Extension):
    """Keep each module's public API: its ``__all__``, or what it defines and re-exports."""

    def on_package(self, *, pkg, **kwargs):
        for mod in [pkg, *_submodules(pkg)]:
            live = importlib.import_module(mod.path)
            exports = getattr(live, "__all__", None)
            for name, member in list(mod.members.items()):
                if not member.is_alias and member.is_module:  # (is_module resolves an alias)
                    continue
                if exports is not None:
                    drop = name not in exports
                elif member.is_alias:
                    drop = _imported_for_own_use(live, name)
                else:
                    drop = member.is_attribute  # a module-level value (a thread-local state)
                if drop:
                    del mod.members[name]


def _submodules(mod):
    for member in list(mod.members.values()):
        if not member.is_alias and member.is_module:
            yield member
            yield from _submodules(member)


def _once(prop):
    """``prop`` (a property) computed once per object: an object's entry keeps it alive,
    for the one build a process makes."""
    made = {}

    def get(obj):
        hit = made.get(id(obj))
        if hit is None:
            hit = made[id(obj)] = (obj, prop.fget(obj))
        return hit[1]
    return property(get, doc=prop.__doc__)


class CachedMembers(griffe.Extension):
    """After loading (the tree no longer changes), make the consumer views once."""

    def on_package(self, *, pkg, **kwargs):
        for cls, name in ((griffe.Object, "inherited_members"), (griffe.Alias, "members"),
                          (griffe.Alias, "inherited_members")):
            prop = cls.__dict__[name]
            if not hasattr(prop.fget, "__wrapped_once__"):
                setattr(cls, name, _once(prop))
                getattr(cls, name).fget.__wrapped_once__ = True
