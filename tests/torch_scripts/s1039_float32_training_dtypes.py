# a float32 model end to end: dtypes of outputs/grads/optimizer state, mixed float64 input error, .to(float32) conversions
import torch
import torch.nn as nn

net = nn.Linear(3, 1).to(torch.float32)
with torch.no_grad():
    net.weight.copy_(torch.tensor([[0.1, 0.2, 0.3]]))
    net.bias.fill_(0.0)
x32 = torch.tensor([[1.0, 2.0, 3.0]], dtype=torch.float32)
out = net(x32)
print(out, out.dtype)
out.sum().backward()
print(net.weight.grad.dtype, net.weight.grad)
opt = torch.optim.Adam(net.parameters(), lr=0.1)
opt.step()
print(opt.state[net.weight]["exp_avg"].dtype, opt.state[net.weight]["step"].dtype, net.weight)
print(nn.functional.mse_loss(out, torch.zeros(1, 1, dtype=torch.float32)).dtype)
print((x32 * 2.5).dtype, (x32 + torch.tensor(1.0)).dtype, (x32 + torch.tensor([1.0, 1.0, 1.0])).dtype)
print(x32.mean().dtype, x32.sum(dtype=torch.float64).dtype, x32.softmax(-1))
print(torch.tensor(0.1, dtype=torch.float32).item(), torch.tensor([1 / 3], dtype=torch.float32))
