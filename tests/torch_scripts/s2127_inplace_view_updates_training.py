import torch

# manual SGD with momentum written through views of one flat parameter vector
flat = torch.zeros(7, requires_grad=True)
W = flat[:6].view(2, 3)
b = flat[6:]
vel = torch.zeros(7)
X = torch.tensor([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0], [1.0, 1.0, 1.0]])
Y = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
for step in range(40):
    W = flat[:6].view(2, 3)
    b = flat[6:]
    pred = X @ W.T + b
    loss = ((pred - Y) ** 2).mean()
    flat.grad = None
    loss.backward()
    with torch.no_grad():
        vel.mul_(0.8).add_(flat.grad)
        flat.sub_(0.1 * vel)
        flat[:6].view(2, 3)[:, 0].clamp_(-0.6, 0.6)
    if step % 13 == 0:
        print(step, round(loss.item(), 5))
print(flat.detach().round(decimals=4))
buf = torch.zeros(3, 4)
row = buf[1]
row += torch.arange(4.0)
buf[:, 2].mul_(3).add_(1)
col = buf.t()
col[0].fill_(-1)
print(buf)
a = torch.ones(4, requires_grad=True)
h = a * 2
h[1:3] *= torch.tensor([5.0, 7.0])
h.sum().backward()
print(h.detach(), a.grad, h.grad_fn.name())
