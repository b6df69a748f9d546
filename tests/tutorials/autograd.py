"""After PyTorch's "Automatic Differentiation with torch.autograd" tutorial and the second
half of "A Gentle Introduction to torch.autograd" (the parts that need no torchvision)."""
import torch

torch.manual_seed(0)  # (not in the tutorial: the test's runs repeat)

x = torch.ones(5)  # input tensor
y = torch.zeros(3)  # expected output
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
z_grad_fn = z.grad_fn.name()
loss.backward()
print(w.grad)
print(b.grad)
# d loss / d w for BCE-with-logits against zeros: sigmoid(z) / 3, the same for every row
expected_w = (torch.sigmoid(z) / 3).detach().expand(5, 3)
grads_ok = [bool(torch.allclose(w.grad, expected_w)), bool(torch.allclose(b.grad, expected_w[0]))]
z = torch.matmul(x, w) + b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)
z = torch.matmul(x, w) + b
z_det = z.detach()
print(z_det.requires_grad)

inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
first = inp.grad.clone()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
second = inp.grad.clone()
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")

# A Gentle Introduction to torch.autograd: differentiation in autograd
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a**3 - b**2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9 * a**2 == a.grad)
print(-2 * b == b.grad)
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a2 = x + y
print(f"Does `a` require gradients?: {a2.requires_grad}")
b2 = x + z
print(f"Does `b` require gradients?: {b2.requires_grad}")

RESULT = {"grads_ok": grads_ok, "z_grad_fn": z_grad_fn,
          "no_grad": z_det.requires_grad, "first": first.tolist(), "second": second.tolist(),
          "after_zero": inp.grad.tolist(), "a_grad": (9 * a**2 == a.grad).tolist(),
          "b_grad": (-2 * b == b.grad).tolist(), "rg": [a2.requires_grad, b2.requires_grad]}
