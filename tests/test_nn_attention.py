"""scaled_dot_product_attention, MultiheadAttention and the Transformer layers against
PyTorch in float64: torch's state_dict loaded into tapegrad's module, then outputs,
attention weights and the gradients of the inputs and of every parameter compared (to
1e-10); masks of both kinds, key padding, batch_first, separate key/value sizes, bias_kv
and zero attention; reprs, state_dict keys, the causal mask helper and errors."""
import warnings

import numpy as np
import pytest

import tapegrad as tg

pytestmark = pytest.mark.oracle

CAUSAL = np.triu(np.ones((5, 4), bool), 1)
DEAD = CAUSAL.copy()
DEAD[2] = True  # query 2 attends to no key: 0 from SDPA (safe softmax), NaN from MHA's weights
PADDED = np.array([[False] * 4, [False, False, False, True], [False, True, False, True]])

SDPA = {  # name: (kwargs(L), shapes of q, k, v)
    "plain": (lambda L: {}, ((2, 3, 5, 4), (2, 3, 6, 4), (2, 3, 6, 2))),
    "causal": (lambda L: {"is_causal": True}, ((2, 5, 4), (2, 5, 4), (2, 5, 3))),
    "bool_mask": (lambda L: {"attn_mask": L.tensor(~CAUSAL)}, ((3, 5, 4), (3, 4, 4),
                                                                (3, 4, 4))),
    "float_mask_scale": (lambda L: {"attn_mask": L.tensor(np.linspace(-1, 1, 20).reshape(5, 4)),
                                    "scale": 0.3}, ((3, 5, 4), (3, 4, 4), (3, 4, 4))),
    "gqa": (lambda L: {"enable_gqa": True}, ((1, 4, 3, 2), (1, 2, 3, 2), (1, 2, 3, 2))),
    "bool_mask_dead_row": (lambda L: {"attn_mask": L.tensor(~DEAD)}, ((3, 5, 4), (3, 4, 4),
                                                                      (3, 4, 4))),
    "float_mask_dead_row": (lambda L: {"attn_mask": L.tensor(np.where(DEAD, -np.inf, 0.5))},
                            ((2, 5, 4), (2, 4, 4), (2, 4, 3))),
}


def _grads(L, out, leaves):
    outs = out if isinstance(out, tuple) else (out,)
    outs = [o for o in outs if o is not None]
    loss = sum((o * o.detach().cos()).sum() for o in outs)
    return [np.asarray(o.detach()) for o in outs] + \
        [np.asarray(g) for g in L.autograd.grad(loss, leaves)]


@pytest.mark.parametrize("name", list(SDPA))
def test_sdpa_matches_torch(name, rng, torch):
    kwargs, shapes = SDPA[name]
    arrays = [rng.standard_normal(s) for s in shapes]
    results = []
    for L in (tg, torch):
        xs = [L.tensor(a, requires_grad=True) for a in arrays]
        out = L.nn.functional.scaled_dot_product_attention(*xs, **kwargs(L))
        results.append(_grads(L, out, xs))
    for a, b in zip(*results, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


MHA = {  # name: (build(nn), q, k, v shapes, forward kwargs(L))
    "self": (lambda nn: nn.MultiheadAttention(8, 2), (5, 3, 8), (5, 3, 8), {}),
    "masks": (lambda nn: nn.MultiheadAttention(8, 4), (5, 3, 8), (4, 3, 8),
              lambda L: {"attn_mask": L.tensor(CAUSAL),
                         "key_padding_mask": L.tensor(PADDED)}),
    "float_mask_per_head_weights": (
        lambda nn: nn.MultiheadAttention(8, 2), (5, 3, 8), (4, 3, 8),
        lambda L: {"attn_mask": L.tensor(np.where(CAUSAL, -1e9, 0.5)),
                   "average_attn_weights": False}),
    "batch_first_no_weights": (lambda nn: nn.MultiheadAttention(6, 3, batch_first=True),
                               (3, 5, 6), (3, 4, 6), lambda L: {"need_weights": False}),
    "kdim_vdim_no_bias": (lambda nn: nn.MultiheadAttention(8, 2, bias=False, kdim=5, vdim=3),
                          (5, 3, 8), ((4, 3, 5), (4, 3, 3)), {}),
    "bias_kv_zero_attn": (lambda nn: nn.MultiheadAttention(8, 2, add_bias_kv=True,
                                                           add_zero_attn=True),
                          (5, 3, 8), (4, 3, 8),
                          lambda L: {"key_padding_mask": L.tensor(PADDED),
                                     "attn_mask": L.tensor(CAUSAL)}),
    "unbatched": (lambda nn: nn.MultiheadAttention(8, 2), (5, 8), (4, 8), {}),
    "dead_row_nan": (lambda nn: nn.MultiheadAttention(8, 2), (5, 3, 8), (4, 3, 8),
                     lambda L: {"attn_mask": L.tensor(DEAD)}),
    "dead_row_no_weights_zero": (lambda nn: nn.MultiheadAttention(8, 2), (5, 3, 8), (4, 3, 8),
                                 lambda L: {"attn_mask": L.tensor(DEAD), "need_weights": False}),
    "all_keys_padded_no_weights": (
        lambda nn: nn.MultiheadAttention(6, 3, batch_first=True), (3, 5, 6), (3, 4, 6),
        lambda L: {"key_padding_mask": L.tensor(np.array([[False] * 4, [True] * 4,
                                                          [False, True, True, True]])),
                   "need_weights": False}),
}


def _copy(module, tmodule):
    module.load_state_dict({k: tg.tensor(v.detach().numpy()) for k, v in
                            tmodule.state_dict().items()})


def _module_results(L, mod, arrays, call):
    xs = [L.tensor(a, requires_grad=True) for a in arrays]
    out = call(L, mod, xs)
    return _grads(L, out, xs + list(mod.parameters()))


def _compare(build, arrays, call, torch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's nested-tensor notice
        tmod = build(torch.nn).double().eval()
    mod = build(tg.nn).eval()
    assert repr(mod) == repr(tmod)
    assert [(k, tuple(v.shape)) for k, v in mod.state_dict().items()] == \
        [(k, tuple(v.shape)) for k, v in tmod.state_dict().items()]
    _copy(mod, tmod)
    ours = _module_results(tg, mod, arrays, call)
    theirs = _module_results(torch, tmod, arrays, call)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", list(MHA))
def test_multihead_attention_matches_torch(name, rng, torch):
    build, q_shape, kv_shape, kwargs = MHA[name]
    k_shape, v_shape = kv_shape if isinstance(kv_shape[0], tuple) else (kv_shape, kv_shape)
    same = q_shape == k_shape == v_shape and name == "self"
    arrays = [rng.standard_normal(q_shape)] + ([] if same else [rng.standard_normal(k_shape),
                                                               rng.standard_normal(v_shape)])
    kw = kwargs if isinstance(kwargs, dict) else None

    def call(L, mod, xs):
        q, k, v = (xs * 3) if same else xs
        return mod(q, k, v, **(kw if kw is not None else kwargs(L)))
    _compare(build, arrays, call, torch)


LAYERS = {  # name: (build(nn), input shapes, call(L, mod, xs))
    "encoder_layer": (lambda nn: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0),
                      [(5, 3, 8)], lambda L, m, xs: m(xs[0])),
    "encoder_layer_norm_first_gelu_padding": (
        lambda nn: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu",
                                              norm_first=True, batch_first=True),
        [(3, 4, 8)], lambda L, m, xs: m(xs[0], src_key_padding_mask=L.tensor(PADDED))),
    "encoder_stack_causal_norm": (
        lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2,
                                         norm=nn.LayerNorm(8)),
        [(5, 3, 8)], lambda L, m, xs: m(
            xs[0], mask=L.nn.Transformer.generate_square_subsequent_mask(5, dtype=L.float64),
            is_causal=True)),
    "decoder_layer": (lambda nn: nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0),
                      [(5, 3, 8), (4, 3, 8)], lambda L, m, xs: m(xs[0], xs[1])),
    "decoder_stack_masks": (
        lambda nn: nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0,
                                                                    norm_first=True), 2),
        [(5, 3, 8), (4, 3, 8)], lambda L, m, xs: m(
            xs[0], xs[1], tgt_mask=L.nn.Transformer.generate_square_subsequent_mask(
                5, dtype=L.float64), memory_key_padding_mask=L.tensor(PADDED))),
    "transformer": (lambda nn: nn.Transformer(8, 2, 1, 1, 16, dropout=0.0),
                    [(4, 3, 8), (5, 3, 8)], lambda L, m, xs: m(xs[0], xs[1])),
}


@pytest.mark.parametrize("name", list(LAYERS))
def test_transformer_layers_match_torch(name, rng, torch):
    build, shapes, call = LAYERS[name]
    _compare(build, [rng.standard_normal(s) for s in shapes], call, torch)


def test_start_as_torch_and_causal_mask(torch):
    tg.manual_seed(0)
    m = tg.nn.MultiheadAttention(16, 4)
    assert float(m.in_proj_bias.abs().sum()) == 0.0 and float(m.out_proj.bias.abs().sum()) == 0
    bound = (6 / (16 + 48)) ** 0.5  # xavier_uniform_ of (48, 16)
    w = np.asarray(m.in_proj_weight.detach())
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
    mask = tg.nn.Transformer.generate_square_subsequent_mask(3)
    np.testing.assert_array_equal(np.asarray(mask), torch.nn.Transformer.
                                  generate_square_subsequent_mask(3).numpy())


ERRORS = {
    "heads": lambda nn, L: nn.MultiheadAttention(6, 4),
    "sizes": lambda nn, L: nn.MultiheadAttention(0, 4),
    "causal_without_mask": lambda nn, L: nn.MultiheadAttention(4, 2).double()(
        L.zeros(3, 1, 4, dtype=L.float64), L.zeros(3, 1, 4, dtype=L.float64),
        L.zeros(3, 1, 4, dtype=L.float64), is_causal=True),
    "activation": lambda nn, L: nn.TransformerEncoderLayer(4, 2, activation="tanh"),
    "sdpa_causal_and_mask": lambda nn, L: nn.functional.scaled_dot_product_attention(
        L.zeros(2, 3), L.zeros(2, 3), L.zeros(2, 3), attn_mask=L.ones(2, 2, dtype=L.bool),
        is_causal=True),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(name, raises_as_torch):
    raises_as_torch(lambda L: ERRORS[name](L.nn, L))
