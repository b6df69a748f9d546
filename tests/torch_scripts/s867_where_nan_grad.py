# The torch.where NaN-gradient trap (sqrt of a negative in the unused branch) and the fix of
# masking the input first; also safe log and safe division
import torch

x = torch.tensor([-1.0, 0.0, 4.0], requires_grad=True)
y = torch.where(x > 0, torch.sqrt(x), torch.zeros_like(x))
y.sum().backward()
print(y, x.grad)
x.grad = None
safe = torch.where(x > 0, x, torch.ones_like(x))
y2 = torch.where(x > 0, torch.sqrt(safe), torch.zeros_like(x))
y2.sum().backward()
print(y2, x.grad)
x.grad = None
z = torch.where(x != 0, 1 / x, torch.zeros_like(x))
z.sum().backward()
print(z, x.grad)
p = torch.tensor([0.0, 0.5], requires_grad=True)
ent = -(p * torch.log(p)).nan_to_num().sum()
ent.backward()
print(ent, p.grad)
p.grad = None
ent2 = -torch.special.xlogy(p, p).sum()
ent2.backward()
print(ent2, p.grad)
