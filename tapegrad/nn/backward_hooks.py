"""``Module.register_full_backward_hook`` and ``register_full_backward_pre_hook``: a module
call with such hooks is wrapped in two identity ops, as PyTorch does.  One is around its
outputs, whose backward sees ``grad_output`` (and runs the pre-hooks, which may replace
it). The other is around its tensor inputs that require grad, whose backward sees
``grad_input`` (zeros for the other tensor inputs) and runs the hooks, which may replace
that.  When no input requires grad, the hooks run at the outputs' op with ``grad_input``
all None.  The hooks registered for every module (torch.nn.modules.module's globals) run
before the module's own."""
import warnings
from collections import OrderedDict

from ..autograd.function import Function
from ..creation import zeros_like
from ..tensor import Tensor

_NO_INPUTS = ("Full backward hook is firing when gradients are computed with respect to module "
              "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/"
              "main/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook "
              "for more details.")


# register_module_full_backward_hook's and register_module_full_backward_pre_hook's hooks
GLOBAL_BACKWARD, GLOBAL_BACKWARD_PRE = OrderedDict(), OrderedDict()


def _backward_hooks(module):
    return [*GLOBAL_BACKWARD.values(), *module._backward_hooks.values()]


class _Call:
    """One module call's hooks and what its backward has seen so far."""

    def __init__(self, module, args, grad_positions):
        self.module = module
        self.n_args = len(args)
        self.positions = grad_positions  # positional args that require grad
        # the other tensor args: PyTorch's identity op takes them too, and its grad_input
        # holds their materialized zero gradients (None only for non-tensor args)
        self.constants = [(i, a) for i, a in enumerate(args) if isinstance(a, Tensor)
                          and not a.requires_grad] if grad_positions else []
        self.grad_output = None

    def pre(self, grads):
        for hook in [*GLOBAL_BACKWARD_PRE.values(), *self.module._backward_pre_hooks.values()]:
            res = hook(self.module, grads)
            if res is not None:
                grads = tuple(res) if isinstance(res, (tuple, list)) else (res,)
        self.grad_output = grads
        return grads

    def post(self, grads):
        grad_input = [None] * self.n_args
        for p, g in zip(self.positions, grads):
            grad_input[p] = g
        for p, a in self.constants:
            grad_input[p] = zeros_like(a)
        grad_input = tuple(grad_input)
        for hook in _backward_hooks(self.module):
            res = hook(self.module, grad_input, self.grad_output)
            if res is not None:
                res = tuple(res) if isinstance(res, (tuple, list)) else (res,)
                if len(res) != len(grad_input):
                    raise RuntimeError(f"Backward hook returned an invalid number of grad_input, "
                                       f"got {len(res)}, but expected {len(grad_input)}")
                grad_input = res
        return tuple(grad_input[p] for p in self.positions)


def _identity(ctx, call, *tensors):
    """Both ops' forward: the tensors as they are (the op's outputs are then views of them
    made inside a custom Function, as PyTorch's: autograd/function.py), the call noted."""
    ctx.call = call
    return tensors if len(tensors) > 1 else tensors[0]


class _Outputs(Function):
    forward = staticmethod(_identity)

    @staticmethod
    def backward(ctx, *grads):
        grads = ctx.call.pre(grads)
        if not ctx.call.positions:  # no input requires grad: the hooks run here
            if _backward_hooks(ctx.call.module):
                warnings.warn(_NO_INPUTS, UserWarning, stacklevel=2)
            ctx.call.post(())
        return (None, *grads)


class _Inputs(Function):
    forward = staticmethod(_identity)

    @staticmethod
    def backward(ctx, *grads):
        return (None, *ctx.call.post(grads))


def call_with_hooks(module, forward, args, kwargs, after):
    """``forward(*args, **kwargs)`` with the module's full backward hooks attached; the
    result goes through ``after(args, kwargs, result)`` (the forward hooks) before its
    outputs are wrapped, as PyTorch does, so the hooks see the final outputs' gradients."""
    positions = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad]
    call = _Call(module, args, positions)
    if positions:
        wrapped = _Inputs.apply(call, *(args[i] for i in positions))
        wrapped = wrapped if isinstance(wrapped, tuple) else (wrapped,)
        args = list(args)
        for i, w in zip(positions, wrapped):
            args[i] = w
        args = tuple(args)
    result = after(args, kwargs, forward(*args, **kwargs))
    single = isinstance(result, Tensor)
    outs = (result,) if single else tuple(result) if isinstance(result, (tuple, list)) else None
    if outs is None or not all(isinstance(o, Tensor) for o in outs) or \
            not any(o.requires_grad for o in outs):
        return result
    wrapped = _Outputs.apply(call, *outs)
    return wrapped if single else (wrapped if isinstance(wrapped, tuple) else (wrapped,))


_Inputs.__name__ = _Outputs.__name__ = "BackwardHookFunction"  # (grad_fn names as PyTorch's)
