"""Pytrees for the function transforms (``tapegrad.func``): nested tuples, lists, dicts
(``OrderedDict`` and ``defaultdict`` rebuilt as such) and namedtuples of leaves, flattened
to a list of leaves and a spec that rebuilds them, as ``torch.utils._pytree`` does.
A spec prints as PyTorch's does (``*`` for a leaf, ``TreeSpec(tuple, None, [*, *])``) so
error messages read the same.

>>> leaves, spec = tree_flatten({"a": 1, "b": (2, [3])})
>>> leaves
[1, 2, 3]
>>> tree_unflatten([x * 10 for x in leaves], spec)
{'a': 10, 'b': (20, [30])}
"""
from collections import OrderedDict, defaultdict

_DICTS = (dict, OrderedDict, defaultdict)


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


class TreeSpec:
    """How to rebuild a tree from its leaves: the node's type, its keys (dicts' keys,
    namedtuples' class) and the children's specs; ``LEAF`` for a leaf."""

    __slots__ = ("type", "context", "children", "num_leaves")

    def __init__(self, type_, context, children):
        self.type, self.context, self.children = type_, context, children
        self.num_leaves = 1 if type_ is None else sum(c.num_leaves for c in children)

    def is_leaf(self):
        return self.type is None

    def __eq__(self, other):
        return (isinstance(other, TreeSpec) and self.type is other.type
                and self.context == other.context and self.children == other.children)

    def __hash__(self):
        return hash((self.type, len(self.children)))

    def __repr__(self, indent=0):
        if self.type is None:
            return "*"
        if self.context is None:
            head, ctx = self.type.__name__, None
        elif self.type is defaultdict:
            head, ctx = "defaultdict", [self.context[0], list(self.context[1])]
        elif self.type in _DICTS:
            head, ctx = self.type.__name__, list(self.context)
        else:
            head, ctx = "namedtuple", self.context
        kids = (",\n" + " " * (indent + 2)).join(c.__repr__(indent + 2) for c in self.children)
        return f"TreeSpec({head}, {ctx}, [{kids}])"

    def pprint(self):
        """The short form PyTorch's ``treespec_pprint`` gives: ``({'a': *}, [*, *])``."""
        if self.type is None:
            return "*"
        kids = [c.pprint() for c in self.children]
        if self.type is dict:
            items = ", ".join(f"{k!r}: {v}" for k, v in zip(self.context, kids, strict=True))
            return "{" + items + "}"
        if self.type is OrderedDict:
            items = ", ".join(f"({k!r}, {v})" for k, v in zip(self.context, kids, strict=True))
            return f"OrderedDict([{items}])"
        if self.type is defaultdict:
            items = ", ".join(f"{k!r}: {v}" for k, v in zip(self.context[1], kids, strict=True))
            return f"defaultdict({self.context[0]}, {{{items}}})"
        if self.context is not None:  # a namedtuple
            fields = ", ".join(f"{k}={v}" for k, v in zip(self.context._fields, kids, strict=True))
            return f"{self.context.__name__}({fields})"
        if self.type is list:
            return "[" + ", ".join(kids) + "]"
        return "(" + ", ".join(kids) + ("," if len(kids) == 1 else "") + ")"


LEAF = TreeSpec(None, None, [])


def tree_flatten(tree, is_leaf=None):
    """``(leaves, spec)``: the leaves in order (depth first, dicts in insertion order);
    ``is_leaf(node)`` true stops the descent there."""
    leaves = []
    return leaves, _flatten(tree, leaves, is_leaf)


def _flatten(tree, leaves, is_leaf=None):
    if is_leaf is not None and is_leaf(tree):
        pass
    elif _is_namedtuple(tree):
        return TreeSpec(tuple, type(tree), [_flatten(v, leaves, is_leaf) for v in tree])
    elif type(tree) in (tuple, list):
        return TreeSpec(type(tree), None, [_flatten(v, leaves, is_leaf) for v in tree])
    elif type(tree) in _DICTS:
        keys = tuple(tree)
        return TreeSpec(type(tree), (tree.default_factory, keys) if type(tree) is defaultdict
                        else keys, [_flatten(v, leaves, is_leaf) for v in tree.values()])
    leaves.append(tree)
    return LEAF


def tree_leaves(tree, is_leaf=None):
    """The leaves of ``tree`` in order."""
    return tree_flatten(tree, is_leaf)[0]


def tree_iter(tree, is_leaf=None):
    """An iterator over the leaves of ``tree``."""
    return iter(tree_leaves(tree, is_leaf))


def tree_structure(tree, is_leaf=None):
    """The spec of ``tree``."""
    return tree_flatten(tree, is_leaf)[1]


def tree_is_leaf(tree, is_leaf=None):
    """Whether ``tree`` is a leaf itself (no container this module knows, or is_leaf's)."""
    return tree_structure(tree, is_leaf).is_leaf()


def tree_all(pred, tree, is_leaf=None):
    """Whether ``pred`` holds for every leaf."""
    return all(map(pred, tree_leaves(tree, is_leaf)))


def tree_any(pred, tree, is_leaf=None):
    """Whether ``pred`` holds for some leaf."""
    return any(map(pred, tree_leaves(tree, is_leaf)))


def tree_unflatten(leaves, spec):
    """The tree of ``spec`` with ``leaves`` in its leaves' places."""
    it = iter(leaves)
    out = _unflatten(it, spec)
    if next(it, it) is not it:
        raise ValueError(f"tree_unflatten: too many leaves for {spec.num_leaves} places")
    return out


def _unflatten(it, spec):
    if spec.type is None:
        return next(it)
    kids = [_unflatten(it, c) for c in spec.children]
    if spec.type is defaultdict:
        return defaultdict(spec.context[0], zip(spec.context[1], kids, strict=True))
    if spec.type in _DICTS:
        return spec.type(zip(spec.context, kids, strict=True))
    if spec.context is not None:  # a namedtuple
        return spec.context(*kids)
    return spec.type(kids)


def _up_to(spec, tree):
    """``tree``'s subtrees at the leaves of ``spec`` (tree_map's other trees)."""
    if spec.is_leaf():
        return [tree]
    own = _flatten(tree, [], lambda node: node is not tree)
    same = (set(_keys(own)) == set(_keys(spec)) if spec.type in _DICTS
            else own.context == spec.context) and len(own.children) == len(spec.children)
    if own.type is not spec.type or not same:
        raise ValueError(f"Expected a tree of structure {spec.pprint()}, got "
                         f"{type(tree).__name__}")
    kids = [tree[k] for k in _keys(spec)] if spec.type in _DICTS else list(tree)
    return [x for c, k in zip(spec.children, kids, strict=True) for x in _up_to(c, k)]


def tree_map(fn, tree, *rests, is_leaf=None):
    """``tree`` with ``fn`` applied at each leaf (to the leaf and the subtrees at the same
    place of ``rests``)."""
    leaves, spec = tree_flatten(tree, is_leaf)
    others = [_up_to(spec, r) for r in rests]
    return tree_unflatten([fn(*xs) for xs in zip(leaves, *others, strict=True)], spec)


def tree_map_(fn, tree, *rests, is_leaf=None):
    """``fn`` applied at each leaf for its effect; returns ``tree``."""
    tree_map(fn, tree, *rests, is_leaf=is_leaf)
    return tree


def _only(type_or_pred, fn):
    if isinstance(type_or_pred, type) or (isinstance(type_or_pred, tuple) and all(
            isinstance(t, type) for t in type_or_pred)) or hasattr(type_or_pred, "__args__"):
        return lambda x: fn(x) if isinstance(x, type_or_pred) else x
    return lambda x: fn(x) if type_or_pred(x) else x


def tree_map_only(type_or_types_or_pred, /, func, tree, is_leaf=None):
    """``tree`` with ``func`` applied at the leaves of the given types (or for which the
    predicate holds), the others kept."""
    return tree_map(_only(type_or_types_or_pred, func), tree, is_leaf=is_leaf)


def broadcast_prefix(prefix, spec):
    """The leaves of ``prefix`` repeated over the leaves of ``spec`` below each of them
    (``in_dims=0`` for every leaf of an argument), or None when ``prefix`` is not a prefix
    of the tree (a tuple of the wrong length, another container, other dict keys)."""
    out = []
    return out if _broadcast(prefix, spec, out) else None


def _broadcast(prefix, spec, out):
    p_spec = _flatten(prefix, [])
    if p_spec.is_leaf():
        out.extend([prefix] * spec.num_leaves)
        return True
    if p_spec.type is not spec.type or len(p_spec.children) != len(spec.children):
        return False
    if spec.type in _DICTS:
        keys = _keys(spec)
        if set(prefix) != set(keys):
            return False
        return all(_broadcast(prefix[k], c, out) for k, c in zip(keys, spec.children, strict=True))
    return all(_broadcast(p, c, out) for p, c in zip(prefix, spec.children, strict=True))


def _keys(spec):
    """A dict node's keys (a defaultdict's context also holds its default_factory)."""
    return spec.context[1] if spec.type is defaultdict else spec.context
