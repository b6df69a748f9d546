# logsumexp and softmax with -inf entries (masked attention rows), gradients
import torch

x = torch.tensor([[0.0, float("-inf"), 1.0], [float("-inf"), float("-inf"), float("-inf")]], requires_grad=True)
l = torch.logsumexp(x, dim=1)
print(l)
l[0].backward()
print(x.grad)
x.grad = None
s = torch.softmax(x, dim=1)
print(s)
s[0].pow(2).sum().backward()
print(x.grad)
y = torch.tensor([1.0, float("-inf")], requires_grad=True)
torch.log_softmax(y, 0)[0].backward()
print(y.grad)
