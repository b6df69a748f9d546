"""Recurrent layers (RNN, LSTM, GRU) and their cells: each layer projects the whole
sequence's inputs in one linear row, then steps through time with the hidden-to-hidden
linear and the gate functions; the reverse sweep is backpropagation through time.  An LSTM
or GRU step's gates and new state are one row (ops/nn.py LSTM_CELL and LSTM_H, GRU_CELL: an
LSTM step records 4 rows with its piece of the input projection, a GRU step 3, where composed
from primitives they took 16 and 19); a step whose
tensors mix dtypes (or are neither float32 nor float64) is composed from primitives.
Parameters carry PyTorch's names (``weight_ih_l0``, ``bias_hh_l1_reverse``, ``weight_hr_l0``),
shapes, order and start (U(-1/sqrt(hidden), 1/sqrt(hidden))), so state
dicts move between the two; inputs may be padded tensors or ``PackedSequence``.

>>> import tapegrad as tg
>>> lstm = tg.nn.LSTM(4, 3, num_layers=2, batch_first=True)
>>> out, (h, c) = lstm(tg.randn(5, 7, 4))
>>> out.shape, h.shape
(torch.Size([5, 7, 3]), torch.Size([2, 5, 3]))
"""
import functools
import math
import numbers
import warnings

import numpy as np

from .. import ops
from ..device import check as check_device
from ..grad_mode import is_grad_enabled
from ..ops import nn as N
from ..ops._record import named_result
from ..tensor import Tensor
from . import functional as F
from . import init
from .layers import _dtype
from .modules import Module
from .parameter import Parameter
from .utils.rnn import PackedSequence

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}
_FUSED_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
FUSE_CELLS = True  # False: every step composed from primitives (bench_rnn.py's "composed")
# Recorded for backward, a fused step measured faster than the composed one at B H = 32 state
# elements (0.44-0.58x, forward + backward) but slower at 2,048 (1.03-1.28x: its reverse rules
# recompute the gates, the composed rows reuse their saved outputs) and even at 8,192
# (benchmarks/ab_rnn.py); under no_grad it measured faster or even at every size
FUSE_MAX_RECORDED = 1024


# ---- one time step: (input projection, state...) -> new state (the output first) ---------
def _rnn_step(act, w_hh, b_hh, xg, h):
    """h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)."""
    return (act(xg + F.linear(h, w_hh, b_hh)),)


def _fused(*tensors):
    """The fused cell rows (ops/nn.py LSTM_CELL, GRU_CELL) take tensors of one float dtype
    (None: no bias or projection), and, where the step is recorded, a state (the second
    tensor) of at most FUSE_MAX_RECORDED elements; anything else (a float16 state, a mix of
    dtypes that promotes, a large recorded state) is composed from primitives."""
    dt = tensors[0].dtype
    if not FUSE_CELLS or dt not in _FUSED_DTYPES or \
            any(t is not None and t.dtype != dt for t in tensors):
        return False
    return tensors[1].numel() <= FUSE_MAX_RECORDED or not is_grad_enabled() or \
        not any(t is not None and t.requires_grad for t in tensors)


def _lstm_step(w_hh, b_hh, w_hr, xg, h, c):
    """Gates i, f, g, o; c' = f c + i g; h' = o tanh(c') (times W_hr^T with projections)."""
    if _fused(xg, h, c, w_hh, b_hh, w_hr):  # an LSTM_CELL row (c') and an LSTM_H row (h')
        h, c = N.lstm_cell(xg, F.linear(h, w_hh, b_hh), c)
        return (h if w_hr is None else F.linear(h, w_hr), c)
    i, f, g, o = (xg + F.linear(h, w_hh, b_hh)).chunk(4, 1)
    c = f.sigmoid() * c + i.sigmoid() * g.tanh()
    h = o.sigmoid() * c.tanh()
    return (h if w_hr is None else F.linear(h, w_hr), c)


def _gru_step(w_hh, b_hh, xg, h):
    """r, z = sigmoid(x W_i^T + b_i + h W_h^T + b_h); n = tanh(x W_in^T + b_in
    + r (h W_hn^T + b_hn)); h' = (1 - z) n + z h."""
    if _fused(xg, h, w_hh, b_hh):  # one GRU_CELL row
        return (N.gru_cell(xg, F.linear(h, w_hh, b_hh), h),)
    xr, xz, xn = xg.chunk(3, 1)
    hr, hz, hn = F.linear(h, w_hh, b_hh).chunk(3, 1)
    r = (xr + hr).sigmoid()
    z = (xz + hz).sigmoid()
    n = (xn + r * hn).tanh()
    return ((1.0 - z) * n + z * h,)


def _step(mode, w_hh, b_hh, w_hr=None):
    if mode == "LSTM":
        return functools.partial(_lstm_step, w_hh, b_hh, w_hr)
    if mode == "GRU":
        return functools.partial(_gru_step, w_hh, b_hh)
    return functools.partial(_rnn_step, ops.tanh if mode == "RNN_TANH" else ops.relu, w_hh,
                             b_hh)


def _direction(step, xg, state, batch_sizes, reverse):
    """Run ``step`` over the steps' input projections ``xg`` (a list, step t holding
    ``batch_sizes[t]`` rows, decreasing) from ``state`` (a tuple of (B, *) tensors); the
    outputs in time order and the final state of every sequence (each its own last step)."""
    outs = [None] * len(xg)
    if not reverse:
        done = []  # the final states of sequences that ended, latest first at the end
        for t, x in enumerate(xg):
            n = batch_sizes[t]
            if n < state[0].shape[0]:
                done.append(tuple(s[n:] for s in state))
                state = tuple(s[:n] for s in state)
            state = step(x, *state)
            outs[t] = state[0]
        if done:
            state = tuple(ops.cat([s] + [d[i] for d in reversed(done)], 0)
                          for i, s in enumerate(state))
        return outs, state
    full = state
    if batch_sizes[-1] < state[0].shape[0]:
        state = tuple(s[:batch_sizes[-1]] for s in state)
    for t in range(len(xg) - 1, -1, -1):
        n = batch_sizes[t]
        if n > state[0].shape[0]:  # sequences that start (from their end) at this step
            state = tuple(ops.cat([s, f[s.shape[0]:n]], 0) for s, f in zip(state, full,
                                                                           strict=True))
        state = step(xg[t], *state)
        outs[t] = state[0]
    return outs, state


class RNNBase(Module):
    """The stack of recurrent layers behind RNN, LSTM and GRU (``mode`` one of 'RNN_TANH',
    'RNN_RELU', 'LSTM', 'GRU')."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0,
                 device=None, dtype=None):
        super().__init__()
        check_device(device, type(self).__name__)
        if isinstance(dropout, bool) or not isinstance(dropout, numbers.Number) or \
                not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}", stacklevel=2)
        for name, v in (("input_size", input_size), ("hidden_size", hidden_size),
                        ("num_layers", num_layers), ("proj_size", proj_size)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"{name} should be of type int, got: {type(v).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable "
                             "projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        if proj_size and mode != "LSTM":
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bias, batch_first
        self.dropout, self.bidirectional = float(dropout), bidirectional
        self.proj_size = proj_size
        gates, out = _GATES[mode] * hidden_size, proj_size or hidden_size
        dt = _dtype(dtype)
        names = []
        for layer in range(num_layers):
            for direction in range(2 if bidirectional else 1):
                suffix = f"_l{layer}" + ("_reverse" if direction else "")
                fan_in = input_size if layer == 0 else out * (2 if bidirectional else 1)
                shapes = [("weight_ih", (gates, fan_in)), ("weight_hh", (gates, out))]
                if bias:
                    shapes += [("bias_ih", (gates,)), ("bias_hh", (gates,))]
                if proj_size:
                    shapes.append(("weight_hr", (proj_size, hidden_size)))
                for name, shape in shapes:
                    self.register_parameter(name + suffix, Parameter(np.zeros(shape, dt)))
                    names.append(name + suffix)
        self._flat_weights_names = names
        self.reset_parameters()

    def reset_parameters(self):
        """PyTorch's start: every weight and bias U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        bound = 1.0 / math.sqrt(self.hidden_size)
        for p in self.parameters():
            init.uniform_(p, -bound, bound)

    def flatten_parameters(self):
        """Nothing to do: the parameters are used where they are (PyTorch packs them for
        cuDNN)."""

    @property
    def _flat_weights(self):
        return [getattr(self, n) for n in self._flat_weights_names]

    @property
    def all_weights(self):
        """The parameters per layer and direction, as lists in PyTorch's order."""
        per = len(self._flat_weights_names) // (self.num_layers * (1 + self.bidirectional))
        flat = self._flat_weights
        return [flat[i:i + per] for i in range(0, len(flat), per)]

    def _layer_weights(self, layer, direction):
        suffix = f"_l{layer}" + ("_reverse" if direction else "")
        get = lambda name: self._parameters.get(name + suffix)  # noqa: E731
        return get("weight_ih"), get("weight_hh"), get("bias_ih"), get("bias_hh"), \
            get("weight_hr")

    # -- argument checks (before anything is recorded) -------------------------------------
    def _state_shapes(self, batch):
        d = self.num_layers * (2 if self.bidirectional else 1)
        h = (d, batch, self.proj_size or self.hidden_size)
        return [h, (d, batch, self.hidden_size)] if self.mode == "LSTM" else [h]

    def _check_input(self, input, packed):
        name = type(self).__name__
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}: expected a Tensor or a PackedSequence input, got "
                            f"{type(input).__name__}")
        if not packed and input.ndim not in (2, 3):
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.ndim}D "
                             f"{'tensor ' if name == 'RNN' else ''}instead")
        if packed and input.ndim != 2:
            raise RuntimeError(f"input must have 2 dimensions, got {input.ndim}")
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.shape[-1]}")
        if input.dtype.kind != "f":
            raise RuntimeError(f"{name}: expected a floating point input, got {input.dtype} "
                               "(convert it with .double() or .float())")

    def _check_hx(self, hx, batched, batch):
        """``hx`` as a tuple of batched (layers * directions, B, H) states, checked."""
        lstm, name = self.mode == "LSTM", type(self).__name__
        if lstm and (not isinstance(hx, (tuple, list)) or len(hx) != 2):
            raise TypeError(f"{name}: hx must be a tuple (h_0, c_0) of Tensors, got "
                            f"{type(hx).__name__}")
        if not lstm and not isinstance(hx, Tensor):
            raise TypeError(f"{name}: hx must be a Tensor, got {type(hx).__name__}")
        states = tuple(hx) if lstm else (hx,)
        want = 3 if batched else 2
        if any(s.ndim != want for s in states):
            kind = "batched 3-D" if batched else "unbatched 2-D"
            if lstm:
                raise RuntimeError(f"For {kind} input, hx and cx should also be {want}-D but "
                                   f"got ({states[0].ndim}-D, {states[1].ndim}-D) tensors")
            raise RuntimeError(f"For {kind} input, hx should also be {want}-D but got "
                               f"{states[0].ndim}-D tensor")
        if not batched:
            states = tuple(s.unsqueeze(1) for s in states)
        for k, (s, shape) in enumerate(zip(states, self._state_shapes(batch), strict=True)):
            if tuple(s.shape) != shape:
                which = f"hidden[{k}] size" if lstm else "hidden size"
                raise RuntimeError(f"Expected {which} {shape}, got {list(s.shape)}")
        return states

    # -- the computation -------------------------------------------------------------------
    def forward(self, input, hx=None):
        packed = isinstance(input, PackedSequence)
        data = input.data if packed else input
        self._check_input(data, packed)
        batched = packed or data.ndim == 3
        if packed:
            batch_sizes = [int(n) for n in np.asarray(input.batch_sizes._data)]
            batch = batch_sizes[0] if batch_sizes else 0
        else:
            seq = data.shape[1 if self.batch_first and batched else 0]
            batch = data.shape[0 if self.batch_first else 1] if batched else 1
            if seq == 0:
                raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
            batch_sizes = [batch] * seq
        if hx is None:
            states = tuple(Tensor(np.zeros(s, data.dtype)) for s in self._state_shapes(batch))
        else:
            states = self._check_hx(hx, batched, batch)  # (checks done: now record)
            if packed and input.sorted_indices is not None:
                states = tuple(s.index_select(1, input.sorted_indices) for s in states)
        if packed:
            rows = data
        else:
            x = data if batched else data.unsqueeze(1)
            if self.batch_first and batched:
                x = x.transpose(0, 1)
            rows = x.reshape(-1, self.input_size)  # (T * B, input_size), step after step
        rows, finals = self._layers(rows, states, batch_sizes, not packed)
        finals = tuple(ops.stack(f, 0) for f in finals)
        if packed:
            if input.unsorted_indices is not None:
                finals = tuple(f.index_select(1, input.unsorted_indices) for f in finals)
            output = PackedSequence(rows, input.batch_sizes, input.sorted_indices,
                                    input.unsorted_indices)
        else:
            output = rows if rows.ndim == 3 else rows.reshape(len(batch_sizes), batch, -1)
            if not batched:
                output, finals = output.squeeze(1), tuple(f.squeeze(1) for f in finals)
            elif self.batch_first:  # (PyTorch's GRU and RNN: the transpose of 2 ints)
                output = named_result(output.transpose(0, 1), "TransposeBackward0"
                                      if self.mode == "LSTM" else "TransposeBackward1")
        return output, (finals if self.mode == "LSTM" else finals[0])

    def _layers(self, rows, states, batch_sizes, stack=False):
        """Every layer over the packed ``rows``: the last layer's rows and, per state, the
        list of final states (layer by layer, forward before reverse).  ``stack``: the last
        layer gives its steps stacked, (T, B, H), as PyTorch's output (a StackBackward0
        node; of two directions, CatBackward0 of those)."""
        directions = 2 if self.bidirectional else 1
        finals = [[] for _ in states]
        for layer in range(self.num_layers):
            if layer and self.dropout and self.training:
                rows = F.dropout(rows, self.dropout, True)
            outs = []
            for direction in range(directions):
                w_ih, w_hh, b_ih, b_hh, w_hr = self._layer_weights(layer, direction)
                xg = F.linear(rows, w_ih, b_ih).split(batch_sizes, 0)
                k = layer * directions + direction
                o, final = _direction(_step(self.mode, w_hh, b_hh, w_hr), xg,
                                      tuple(s[k] for s in states), batch_sizes, direction == 1)
                last = stack and layer == self.num_layers - 1
                outs.append(ops.stack(o, 0) if last else ops.cat(o, 0))
                for acc, f in zip(finals, final, strict=True):
                    acc.append(f)
            rows = outs[0] if directions == 1 else ops.cat(outs, outs[0].ndim - 1)
        return rows, finals

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


class RNN(RNNBase):
    """Elman RNN: h_t = tanh (or relu)(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh); the
    positional arguments are PyTorch's (input_size, hidden_size, num_layers, nonlinearity,
    bias, batch_first, dropout, bidirectional)."""

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, device=None, dtype=None,
                 proj_size=0):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size,
                         hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size, device, dtype)
        self.nonlinearity = nonlinearity


class LSTM(RNNBase):
    """Long short-term memory; ``forward(input, (h_0, c_0))`` returns
    ``output, (h_n, c_n)``; ``proj_size > 0`` projects h through ``weight_hr``."""

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, device, dtype)


class GRU(RNNBase):
    """Gated recurrent unit (PyTorch's gate order r, z, n; the reset gate multiplies
    ``h W_hn^T + b_hn``)."""

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None, proj_size=0):
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, device, dtype)


# ---- cells: one time step --------------------------------------------------------------------
class RNNCellBase(Module):
    """One step of a recurrent layer: parameters ``weight_ih``, ``weight_hh`` (and
    ``bias_ih``, ``bias_hh``), started as the layers' are."""

    _mode = ""

    def __init__(self, input_size, hidden_size, bias=True, num_chunks=1, device=None,
                 dtype=None):
        super().__init__()
        check_device(device, type(self).__name__)
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        dt = _dtype(dtype)
        self.weight_ih = Parameter(np.zeros((num_chunks * hidden_size, input_size), dt))
        self.weight_hh = Parameter(np.zeros((num_chunks * hidden_size, hidden_size), dt))
        if bias:
            self.bias_ih = Parameter(np.zeros(num_chunks * hidden_size, dt))
            self.bias_hh = Parameter(np.zeros(num_chunks * hidden_size, dt))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    reset_parameters = RNNBase.reset_parameters

    def _states(self, input, hx):
        """``hx`` (a tuple of states) checked against ``input``, both made batched."""
        name, lstm = type(self).__name__, self._mode == "LSTM"
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}: expected a Tensor input, got {type(input).__name__}")
        if input.ndim not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.ndim}D instead")
        if input.dtype.kind != "f":
            raise RuntimeError(f"{name}: expected a floating point input, got {input.dtype} "
                               "(convert it with .double() or .float())")
        if lstm and hx is not None and (not isinstance(hx, (tuple, list)) or len(hx) != 2):
            raise TypeError(f"lstm_cell(): argument 'hx' (position 2) must be tuple of "
                            f"Tensors, not {type(hx).__name__}")
        states = () if hx is None else tuple(hx) if lstm else (hx,)
        for s in states:
            if s.ndim not in (1, 2):
                raise ValueError(f"{name}: Expected hidden to be 1D or 2D, got {s.ndim}D "
                                 "instead")
        batched = input.ndim == 2
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.shape[-1]} "
                               f"expected {self.input_size}")
        batch = input.shape[0] if batched else 1
        for k, s in enumerate(states):
            if s.ndim != input.ndim:
                raise RuntimeError(f"{name}: for a {input.ndim}-D input, hidden{k} should also "
                                   f"be {input.ndim}-D but got a {s.ndim}-D tensor")
            if s.shape[-1] != self.hidden_size:
                raise RuntimeError(f"hidden{k} has inconsistent hidden_size: got "
                                   f"{s.shape[-1]}, expected {self.hidden_size}")
            if batched and s.shape[0] != batch:
                raise RuntimeError(f"Input batch size {batch} doesn't match hidden{k} batch "
                                   f"size {s.shape[0]}")
        if not states:
            zeros = np.zeros((batch, self.hidden_size), input.dtype)
            states = (Tensor(zeros),) * (2 if lstm else 1)
        elif not batched:
            states = tuple(s.unsqueeze(0) for s in states)
        return (input if batched else input.unsqueeze(0)), states, batched

    def forward(self, input, hx=None):
        x, states, batched = self._states(input, hx)  # (checks done: now record)
        step = _step(self._mode, self.weight_hh, self.bias_hh)
        out = step(F.linear(x, self.weight_ih, self.bias_ih), *states)
        if not batched:
            out = tuple(s.squeeze(0) for s in out)
        return out if self._mode == "LSTM" else out[0]

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s


class RNNCell(RNNCellBase):
    """One Elman step: h' = tanh (or relu)(x W_ih^T + b_ih + h W_hh^T + b_hh)."""

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity: {nonlinearity}")
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity
        self._mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"


class LSTMCell(RNNCellBase):
    """One LSTM step: ``cell(x, (h, c))`` returns ``(h', c')``."""

    _mode = "LSTM"

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)


class GRUCell(RNNCellBase):
    """One GRU step: ``cell(x, h)`` returns ``h'``."""

    _mode = "GRU"

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)
