# backward twice without retain_graph raises; with retain_graph accumulates
import torch

x = torch.tensor([2.0], requires_grad=True)
y = x.exp() * x
y.backward(retain_graph=True)
y.backward()
print(x.grad)
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError", "second time" in str(e))
z = x + 3
z.backward()
z.backward()
print(x.grad)
