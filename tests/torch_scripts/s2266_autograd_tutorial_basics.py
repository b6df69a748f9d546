import torch

x = torch.ones(5)
y = torch.zeros(3)
w = torch.linspace(-1, 1, 15).reshape(5, 3).requires_grad_()
b = torch.tensor([0.1, -0.2, 0.3], requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}".split(" object")[0])
print(f"Gradient function for loss = {loss.grad_fn}".split(" object")[0])
print(type(z.grad_fn).__name__, z.grad_fn.name())
print([type(f).__name__ if f is not None else None for f, _ in z.grad_fn.next_functions])
print(z.grad_fn.next_functions[0][0].name())
loss.backward()
print(w.grad)
print(b.grad)
z = torch.matmul(x, w) + b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)
z = torch.matmul(x, w) + b
z_det = z.detach()
print(z_det.requires_grad, z_det.is_leaf, z.is_leaf, w.is_leaf)
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
