# Tagging graph nodes with metadata (as profilers and debuggers do), reading them back through
# the output's grad_fn later, and the node name of common ops
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
z = (y * 3).sum()
y.grad_fn.metadata["layer"] = "exp"
z.grad_fn.metadata["layer"] = "sum"
z.grad_fn.metadata["step"] = 1
print(y.grad_fn.metadata, z.grad_fn.metadata, z.grad_fn.name())
node = z.grad_fn.next_functions[0][0]
print(node.name(), node.metadata, node.next_functions[0][0].metadata)
node.metadata["seen"] = True
print(z.grad_fn.next_functions[0][0].metadata)
z.backward()
print(y.grad_fn.metadata, x.grad)
