import io
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3)
        self.bn = nn.BatchNorm2d(2)
        self.fc = nn.Linear(8, 3)
        self.register_buffer('step', torch.tensor(0))

    def forward(self, x):
        x = self.bn(self.conv(x)).relu()
        return self.fc(x.flatten(1))


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1) * 0.1)
x = torch.sin(torch.arange(32.)).reshape(2, 1, 4, 4)
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
net(x).sum().backward()
opt.step()
net.step += 1
for k, v in net.state_dict().items():
    print(k, tuple(v.shape), v.dtype)
buffer = io.BytesIO()
torch.save(net.state_dict(), buffer)
size = buffer.tell()
buffer.seek(0)
sd = torch.load(buffer)
print(size > 0, type(sd).__name__, list(sd)[:3])
net2 = Net()
print(net2.load_state_dict(sd))
net.eval(); net2.eval()
print(torch.equal(net(x), net2(x)), net2.step, net2.bn.num_batches_tracked)
buf = io.BytesIO()
torch.save({'model': net.state_dict(), 'opt': opt.state_dict(), 'epoch': 3, 'note': 'ckpt'}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=False)
opt2 = torch.optim.SGD(net2.parameters(), lr=0.5)
opt2.load_state_dict(ck['opt'])
print(ck['epoch'], ck['note'], opt2.param_groups[0]['lr'], opt2.param_groups[0]['momentum'])
print(sorted(opt2.state_dict()['state'].keys()), list(opt2.state_dict()['state'][0].keys()))
print(torch.equal(opt2.state_dict()['state'][0]['momentum_buffer'], opt.state_dict()['state'][0]['momentum_buffer']))
buf = io.BytesIO()
t = torch.arange(10.)
torch.save({'a': t, 'b': t}, buf)
buf.seek(0)
d = torch.load(buf)
d['b'][3] = -1
print(d['a'][:5], d['a'] is d['b'])
buf = io.BytesIO()
torch.save([torch.tensor([1, 2], dtype=torch.int32), torch.tensor(True), (1, 2.5), None], buf)
buf.seek(0)
print(torch.load(buf))
partial = {k: v for k, v in net.state_dict().items() if k.startswith('fc')}
net3 = Net()
res = net3.load_state_dict(partial, strict=False)
print(res.missing_keys, res.unexpected_keys, torch.equal(net3.fc.weight, net.fc.weight))
sd = net.state_dict()
sd['fc.weight'] = torch.zeros(3, 9)
try:
    net3.load_state_dict(sd)
except RuntimeError as e:
    print(str(e).splitlines()[1].strip())
