"""Top-level functions PyTorch programs call that live elsewhere in tapegrad or are built
from its ops: the functional RNN cells (``torch.lstm_cell``...), ``torch.ctc_loss`` (the
reduction as an int), randomised low-rank SVD / PCA, ``lobpcg``, ``histogramdd``, and ``cond`` /
``while_loop`` (run as the Python control flow they stand for: the tape records the branch
taken, and ``tapegrad.compile`` guards it)."""
import builtins

import numpy as np

from . import creation, dtypes, linalg
from . import _aliases, masked  # noqa: F401 (import paths; tapegrad.masked's reductions)
from .nn import functional as F
from .nn.rnn import _GATES, RNNBase, _gru_step, _lstm_step, _rnn_step
from .nn.utils.rnn import PackedSequence
from .nn.utils.weight_norm import _weight_norm
from .ops import EXPORTS as _OPS
from .return_types import named
from .tensor import Tensor, _leaf

HistogramddResult = named("histogramdd", ("hist", "bin_edges"))


# ---- one step of the recurrent cells, as torch.lstm_cell & co. take it --------------------
def _check_cell(G, input, states, w_ih, w_hh, order):  # noqa: A002
    """PyTorch's checks of a functional cell's shapes, in its words and, by ``order``, its
    order (it differs by cell: "i" the input's columns, "w" the weights' rows, G gates of
    hidden_size = w_hh's columns, "h" each state's batch and columns).  (Unchecked, NumPy
    broadcast what PyTorch refuses: silently other values, and fused LSTM and GRU rows
    indexing past their operands, ops/nn.py.)"""
    for t in (input, *states, w_ih, w_hh):
        if t.ndim < 2:  # (PyTorch's, reading dim 1)
            raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but "
                             "got 1)")
        if t.ndim > 2:
            raise RuntimeError(f"the cells take 2-D tensors (batch, features) and weights, "
                               f"got a {t.ndim}-D one of shape {tuple(t.shape)}")
    hidden = w_hh.shape[1]
    for step in order:
        if step == "w":
            for name, w in (("weight_ih", w_ih), ("weight_hh", w_hh)):
                if w.shape[0] != G * hidden:
                    raise RuntimeError(f"{name} first dim must be {G} * hidden_size = "
                                       f"{G * hidden}, but got {w.shape[0]}")
        elif step == "i" and input.shape[1] != w_ih.shape[1]:
            raise RuntimeError(f"input has inconsistent input_size: got {input.shape[1]} "
                               f"expected {w_ih.shape[1]}")
        elif step == "h":
            for k, s in enumerate(states):
                if s.shape[0] != input.shape[0]:
                    raise RuntimeError(f"Input batch size {input.shape[0]} doesn't match "
                                       f"hidden{k} batch size {s.shape[0]}")
                if s.shape[1] != hidden:
                    raise RuntimeError(f"hidden{k} has inconsistent hidden_size: got "
                                       f"{s.shape[1]}, expected {hidden}")


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):  # noqa: A002 (PyTorch's names)
    """``(h', c')`` of one LSTM step from ``hx = (h, c)``."""
    if len(hx) != 2:
        raise RuntimeError("lstm_cell: Expected hx to have 2 tensors (h, c)")
    _check_cell(4, input, hx, w_ih, w_hh, "iwh")
    return _lstm_step(w_hh, b_hh, None, F.linear(input, w_ih, b_ih), hx[0], hx[1])


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):  # noqa: A002
    """``h'`` of one GRU step."""
    _check_cell(3, input, (hx,), w_ih, w_hh, "ihw")
    return _gru_step(w_hh, b_hh, F.linear(input, w_ih, b_ih), hx)[0]


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):  # noqa: A002
    """``tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)``."""
    _check_cell(1, input, (hx,), w_ih, w_hh, "wih")
    return _rnn_step(_OPS["tanh"], w_hh, b_hh, F.linear(input, w_ih, b_ih), hx)[0]


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):  # noqa: A002
    """``relu(x W_ih^T + b_ih + h W_hh^T + b_hh)``."""
    _check_cell(1, input, (hx,), w_ih, w_hh, "wih")
    return _rnn_step(_OPS["relu"], w_hh, b_hh, F.linear(input, w_ih, b_ih), hx)[0]


_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1,
             zero_infinity=False):
    """``torch.ctc_loss``: ``F.ctc_loss`` with the reduction as ATen's int (0 none, 1 mean,
    2 sum); a string is accepted too."""
    reduction = _REDUCTIONS.get(reduction, reduction)
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction,
                      zero_infinity)


# ---- torch.embedding_bag: ATen's form, the mode an int and the bookkeeping returned -------
_BAG_MODES = ("sum", "mean", "max")


def embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                  per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """``(output, offset2bag, bag_size, max_indices)``: ``output`` is
    ``F.embedding_bag(indices, weight, offsets, ...)`` with ``mode`` 0 sum, 1 mean, 2 max;
    the other three are ATen's bookkeeping as PyTorch returns it (the bag of each index;
    the bag sizes without padding, zeros for sum; for max the row chosen per bag and
    column, else the bag sizes again)."""
    if not isinstance(offsets, Tensor):
        raise TypeError(f"embedding_bag(): argument 'offsets' (position 3) must be Tensor, "
                        f"not {type(offsets).__name__}")
    if mode not in (0, 1, 2):
        raise RuntimeError("`mode` must be sum, mean, or max.")
    if indices.ndim != 1:
        raise RuntimeError(f"embedding_bag: indices must be 1-D (the bags are cut at offsets), "
                           f"got shape {tuple(indices.shape)}; F.embedding_bag takes 2-D bags")
    output = F.embedding_bag(indices, weight, offsets, scale_grad_by_freq=scale_grad_by_freq,
                             mode=_BAG_MODES[mode], sparse=sparse,
                             per_sample_weights=per_sample_weights,
                             include_last_offset=include_last_offset, padding_idx=padding_idx)
    idx = np.asarray(indices._data, np.int64)
    offs = np.asarray(offsets._data, np.int64).reshape(-1)
    n_bags = len(offs) - int(bool(include_last_offset))
    bag_of = np.searchsorted(offs, np.arange(len(idx)), side="right") - 1
    keep = np.ones(len(idx), bool) if padding_idx is None else \
        idx != padding_idx % weight.shape[0]
    if mode == 0:
        bag_size = max_indices = np.zeros(n_bags, np.int64)
    else:
        bag_size = np.bincount(bag_of[keep], minlength=n_bags)[:n_bags]
        max_indices = bag_size
    if mode == 2:
        w = np.asarray(weight.detach()._data)
        max_indices = np.zeros((n_bags, w.shape[1]), np.int64)
        for b in builtins.range(n_bags):
            rows = idx[(bag_of == b) & keep]
            if rows.size:
                max_indices[b] = rows[w[rows].argmax(0)]
    return output, _leaf(bag_of), _leaf(bag_size.copy()), _leaf(max_indices.copy())


# ---- randomised low-rank SVD (Halko, Martinsson & Tropp) ----------------------------------
def _basis(A, q, niter):
    """An orthonormal basis (..., m, q) of A's range, by power iterations on a Gaussian
    sketch (drawn from the default generator: it differs from PyTorch's draws)."""
    R = creation.randn(*A.shape[-1:], q, dtype=A.dtype)
    Q = linalg.qr(A @ R).Q
    for _ in range(niter):
        Q = linalg.qr(A.mH @ Q).Q
        Q = linalg.qr(A @ Q).Q
    return Q


def svd_lowrank(A, q=6, niter=2, M=None):
    """``(U, S, V)`` of rank ``q`` approximating ``A - M`` (a randomised SVD; exact up to
    signs when the rank is at most q).  Differentiable through the QR and SVD."""
    if not isinstance(A, Tensor):
        raise TypeError(f"svd_lowrank: expected a Tensor, got {type(A).__name__}")
    q = 6 if q is None else q
    if M is not None:
        A = A - M
    m, n = A.shape[-2], A.shape[-1]
    if m < n:  # sketch the smaller side, as PyTorch does
        U, S, V = svd_lowrank(A.mH, q, niter)
        return V, S, U
    Q = _basis(A, q, niter)
    U, S, Vh = linalg.svd(Q.mH @ A, full_matrices=False)
    return Q @ U, S, Vh.mH


def pca_lowrank(A, q=None, center=True, niter=2):
    """``(U, S, V)`` of the principal components of ``A``'s rows (centred unless
    ``center=False``); ``q`` defaults to ``min(6, m, n)``."""
    m, n = A.shape[-2], A.shape[-1]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than "
                         f"min(m, n)={min(m, n)}")
    if niter < 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if center:
        A = A - A.mean(-2, keepdim=True)
    return svd_lowrank(A, q, niter)


def lobpcg(A, k=None, B=None, X=None, n=None, iK=None, niter=None, tol=None, largest=None,
           method=None, tracker=None, ortho_iparams=None, ortho_fparams=None,
           ortho_bparams=None):
    """``(E, X)``: the ``k`` largest (``largest=False``: smallest) eigenpairs of the
    symmetric ``A`` (``A X = B X diag(E)`` with a positive definite ``B``), E in descending
    (ascending) order, as PyTorch's LOBPCG converges to.  Here the dense solver answers
    (eigh, after a Cholesky change of basis for B), so the iteration's knobs (X's start,
    iK, niter, tol, method, tracker, ortho_*) leave the result as converged; an
    eigenvector's sign is LAPACK's.  Differentiable in A and B through eigh and cholesky."""
    if not isinstance(A, Tensor):
        raise TypeError(f"lobpcg: expected a Tensor for A, got {type(A).__name__}")
    k = (1 if X is None else X.shape[-1]) if k is None else k
    n = (k if X is None else X.shape[-1]) if n is None else n
    m = A.shape[-1]
    if m < 3 * n:
        raise ValueError(f"LOBPCG algorithm is not applicable when the number of A rows "
                         f"(={m}) is smaller than 3 x the number of requested eigenpairs "
                         f"(={n})")
    largest = True if largest is None else largest
    if B is None:
        E, V = linalg.eigh(A)
    else:  # (A x = l B x, B = L L^T: the symmetric L^-1 A L^-T y = l y, x = L^-T y)
        L = linalg.cholesky(B)
        C = linalg.solve_triangular(L, linalg.solve_triangular(L, A, upper=False).mT,
                                    upper=False)
        E, V = linalg.eigh(C)
        V = linalg.solve_triangular(L.mT, V, upper=True)
    if largest:  # (eigh's ascending order, turned round)
        E, V = E.flip(-1), V.flip(-1)
    return E[..., :k], V[..., :k]


def histogramdd(input, bins=10, *, range=None, weight=None, density=False):  # noqa: A002
    """``(hist, bin_edges)`` of the points in the rows of ``input`` (..., D): ``bins`` an
    int, one int per dim, or one edge tensor per dim; ``range`` ``[lo0, hi0, lo1, ...]``
    (each dim's data range by default).  Not differentiable."""
    if input.dtype.kind != "f":
        raise RuntimeError("torch.histogramdd: input tensor and bins tensors should have the "
                           "same dtype")
    d = np.asarray(input.detach()._data)
    pts = d.reshape(-1, d.shape[-1])
    dims = pts.shape[1]
    if isinstance(bins, Tensor):
        bins = [int(v) for v in np.asarray(bins._data)]
    if isinstance(bins, int):
        bins = [bins] * dims
    if len(bins) != dims:
        raise RuntimeError(f"torch.histogramdd: expected {dims} sequences of bin edges for a "
                           f"{dims}-dimensional histogram but got {len(bins)}")
    edges_given = isinstance(bins[0], Tensor)
    if edges_given:
        edges = [np.asarray(b._data, np.float64) for b in bins]
    else:
        if range is not None:
            lims = [(float(range[2 * i]), float(range[2 * i + 1]))
                    for i in builtins.range(dims)]
        else:
            lims = [(float(pts[:, i].min()), float(pts[:, i].max())) if len(pts) else (0.0, 1.0)
                    for i in builtins.range(dims)]
        edges = [np.linspace(lo, hi, int(b) + 1) for (lo, hi), b in zip(lims, bins, strict=True)]
    w = None if weight is None else np.asarray(weight._data).reshape(-1)
    hist, out = np.histogramdd(pts, bins=edges, weights=w, density=density)
    return HistogramddResult(_leaf(hist.astype(input.dtype)),
                             tuple(_leaf(e.astype(input.dtype)) for e in out))


# ---- torch.cond / torch.while_loop, eagerly ---------------------------------------------
def _truth(value, op, what):
    if isinstance(value, Tensor):
        if value.numel() != 1:
            raise RuntimeError(f"{op}: Expected {what} to be bool or single-element tensor, "
                               f"but got {value}.")
        return bool(value.item())
    return bool(value)


def cond(pred, true_fn, false_fn, operands=()):
    """``true_fn(*operands)`` if ``pred`` (a bool or one-element tensor) holds, else
    ``false_fn(*operands)``: PyTorch's control-flow op, run as the ``if`` it stands for."""
    return (true_fn if _truth(pred, "cond", "pred") else false_fn)(*operands)


def while_loop(cond_fn, body_fn, carried_inputs):
    """Apply ``body_fn`` to the carried values while ``cond_fn`` of them holds; returns the
    last carried values, a tuple (PyTorch's ``torch.while_loop``, run as a Python loop)."""
    carried = tuple(carried_inputs)
    while _truth(cond_fn(*carried), "while_loop", "cond_fn's result"):
        out = body_fn(*carried)
        out = tuple(out) if isinstance(out, (tuple, list)) else (out,)
        if len(out) != len(carried):
            raise RuntimeError(f"while_loop: body_fn returned {len(out)} values for "
                               f"{len(carried)} carried inputs; it must return as many")
        carried = out
    return carried


# ---- torch.segment_reduce: one scatter_reduce over segment ids --------------------------
_SEGMENT_REDUCE = {"sum": "sum", "prod": "prod", "mean": "mean", "max": "amax", "amax": "amax",
                   "min": "amin", "amin": "amin"}


def segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0,
                   unsafe=False, initial=None):
    """``data`` reduced (``'sum'``, ``'mean'``, ``'max'``, ``'min'``, ``'prod'``) over
    consecutive segments along ``axis``, their sizes given by ``lengths`` (or ``offsets``):
    lengths has shape ``data.shape[:axis] + (segments,)``.  An empty segment gives
    ``initial`` if given, else 0 (sum), 1 (prod), nan (mean), -inf (max), inf (min)."""
    if reduce not in _SEGMENT_REDUCE:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, "
                           f"got {reduce}")
    if indices is not None:
        raise RuntimeError("segment_reduce(): indices based reduction is not supported yet.")
    if not data.dtype.kind == "f":
        raise NotImplementedError(f'"_segment_reduce_cpu" not implemented for '
                                  f"'{dtypes.torch_name(data.dtype)}'")
    if lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")
    given = lengths if lengths is not None else offsets
    counts = np.asarray(given._data if isinstance(given, Tensor) else given)
    if counts.dtype.kind not in "iu":
        raise NotImplementedError(f'"_segment_reduce_lengths_cpu_kernel1" not implemented '
                                  f"for '{dtypes.torch_name(counts.dtype)}'")
    if lengths is None:
        counts = np.diff(counts, axis=-1)
    axis = axis + data.ndim if axis < 0 else axis
    if counts.ndim - 1 != axis:
        raise RuntimeError(f"segment_reduce(): Expected axis to be the last dimension of "
                           f"lengths but got {axis}.")
    if counts.shape[:-1] != tuple(data.shape[:axis]):
        raise RuntimeError(f"segment_reduce(): lengths of shape {list(counts.shape)} must "
                           f"have data's leading dims {list(data.shape[:axis])} before the "
                           f"segments")
    if (counts < 0).any():
        raise RuntimeError("lengths contains negative value!")
    n, nseg = data.shape[axis], counts.shape[-1]
    if not unsafe and (counts.sum(-1) != n).any():
        raise RuntimeError("segment_reduce(): Expected all rows of lengths along axis to sum "
                           "to data.size(lengths.dim()-1) when !unsafe.")
    # element i of a row goes to the segment whose end first exceeds i; past the last end
    # (only when unsafe) to a spare segment nseg, dropped below
    ends = np.cumsum(counts, axis=-1)
    ids = (ends[..., None, :] <= np.arange(n)[:, None]).sum(-1)
    rest = data.ndim - axis - 1
    index = np.broadcast_to(ids.reshape(ids.shape + (1,) * rest), tuple(data.shape))
    op = _SEGMENT_REDUCE[reduce]
    out_shape = list(data.shape)
    out_shape[axis] = nseg + 1
    identity = {"sum": 0.0, "mean": 0.0, "prod": 1.0, "amax": -np.inf, "amin": np.inf}[op]
    base = creation.full(out_shape, identity if initial is None else initial,
                         dtype=data.dtype)
    out = base.scatter_reduce(axis, Tensor(np.ascontiguousarray(index, dtype=np.int64)),
                              data, "sum" if op == "mean" else op,
                              include_self=initial is not None or op in ("sum", "prod",
                                                                         "mean"))
    out = out.narrow(axis, 0, nseg)
    if op == "mean":  # (initial + sum) / length, as PyTorch's; nan for an empty segment
        c = counts.reshape(counts.shape + (1,) * rest).astype(out.dtype)
        out = out / Tensor(np.maximum(c, 1))
        if initial is None:
            out = _OPS["where"](Tensor(np.broadcast_to(c > 0, tuple(out.shape)).copy()),
                                out, np.nan)
    return out


def norm_except_dim(v, pow=2, dim=0):  # noqa: A002 (PyTorch's names)
    """The ``pow``-norm of ``v`` over every dim but ``dim`` (kept as size-1 dims; weight
    norm's), or of all of ``v`` when ``dim`` is -1."""
    if dim == -1:
        return v.norm(pow)
    d = dim % v.ndim
    others = [i for i in range(v.ndim) if i != d]
    return v.norm(pow, others, keepdim=True) if others else v.abs()


# ---- the whole-sequence RNNs, as torch.lstm & co. take them: nn.RNNBase's forward ---------
def _recurrent(mode, input, *args):  # noqa: A002 (PyTorch's names)
    """``torch.lstm(input, hx, params, has_biases, num_layers, dropout, train,
    bidirectional, batch_first)``, or with ``(data, batch_sizes, hx, params, has_biases,
    num_layers, dropout, train, bidirectional)`` for a packed sequence: ``params`` flat in
    nn.LSTM's order (w_ih, w_hh[, b_ih, b_hh][, w_hr] per layer and direction).  Returns
    ``(output, h_n[, c_n])``, run by the modules' own forward."""
    packed = isinstance(args[0], Tensor) and args[0].ndim == 1 and args[0].dtype.kind in "iu" \
        and len(args) == 8
    if packed:
        batch_sizes, (hx, params, has_biases, num_layers, dropout, train, bidirectional) = \
            args[0], args[1:]
        batch_first = False
    else:
        hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first = args
    directions = 2 if bidirectional else 1
    params = list(params)
    per = len(params) // (num_layers * directions)
    kinds = ["weight_ih", "weight_hh"] + (["bias_ih", "bias_hh"] if has_biases else [])
    if per == len(kinds) + 1:
        kinds.append("weight_hr")
    if per != len(kinds) or per * num_layers * directions != len(params):
        raise RuntimeError(f"{mode.lower()}: expected {len(kinds)} weights per layer and "
                           f"direction ({num_layers} layers, {directions} directions), got "
                           f"{len(params)} in all")
    net = object.__new__(RNNBase)  # (a bare module: the parameters are the caller's tensors)
    names = [f"{k}_l{layer}" + ("_reverse" if d else "") for layer in range(num_layers)
             for d in range(directions) for k in kinds]
    proj = params[per - 1].shape[0] if "weight_hr" in kinds else 0
    for key, value in dict(
            mode=mode, input_size=params[0].shape[1],
            hidden_size=params[1].shape[0] // _GATES[mode], num_layers=num_layers,
            bias=has_biases, batch_first=batch_first, dropout=float(dropout),
            bidirectional=bidirectional, proj_size=proj, training=train, _buffers={},
            _modules={}, _parameters=dict(zip(names, params, strict=True)),
            _flat_weights_names=names).items():
        object.__setattr__(net, key, value)
    if mode == "LSTM":
        hx = tuple(hx)
    if packed:
        out, h = net.forward(PackedSequence(input, batch_sizes), hx)
        out = out.data
    else:
        out, h = net.forward(input, hx)
    return (out, *h) if mode == "LSTM" else (out, h)


def lstm(input, *args):  # noqa: A002
    """``(output, h_n, c_n)`` of a whole LSTM (see ``_recurrent``)."""
    return _recurrent("LSTM", input, *args)


def gru(input, *args):  # noqa: A002
    """``(output, h_n)`` of a whole GRU (see ``_recurrent``)."""
    return _recurrent("GRU", input, *args)


def rnn_tanh(input, *args):  # noqa: A002
    """``(output, h_n)`` of a whole tanh RNN (see ``_recurrent``)."""
    return _recurrent("RNN_TANH", input, *args)


def rnn_relu(input, *args):  # noqa: A002
    """``(output, h_n)`` of a whole ReLU RNN (see ``_recurrent``)."""
    return _recurrent("RNN_RELU", input, *args)


FUNCTIONS = {f.__name__: f for f in (lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell,
                                     ctc_loss, svd_lowrank, pca_lowrank, lobpcg, histogramdd,
                                     embedding_bag, cond, while_loop, segment_reduce,
                                     norm_except_dim, _weight_norm, lstm, gru, rnn_tanh,
                                     rnn_relu)}
