# hooks on grad_fn nodes: register_prehook and register_hook see grad_outputs / grad_inputs
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * x
z = y.sum()
seen = []
y.grad_fn.register_prehook(lambda gout: seen.append(("pre", [g.tolist() for g in gout])))
y.grad_fn.register_hook(lambda gin, gout: seen.append(("post", [None if g is None else g.tolist() for g in gin])))
z.backward()
print(seen)
print(x.grad, y.grad_fn.name(), len(y.grad_fn.next_functions))
print(type(x.grad_fn), y.grad_fn.next_functions[0][0].name())
