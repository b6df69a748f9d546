import copy
import pickle
import io
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.lin(x))

    def extra_repr(self):
        return "custom=1"


net = nn.Sequential()
net.add_module("b0", Block())
net.register_module("b1", Block())
net.append(nn.Linear(2, 1))
print(net)
print([n for n, _ in net.named_modules()], [type(c).__name__ for c in net.children()])
print(net.get_submodule("b1.lin").in_features, net.get_parameter("b0.lin.bias").shape, len(net), net[-1].out_features)
print(net[0:2].__class__.__name__, len(list(net.named_parameters(prefix="m", recurse=True))))
net.requires_grad_(False)
print(any(p.requires_grad for p in net.parameters()))
net.b1.requires_grad_(True)
print([n for n, p in net.named_parameters() if p.requires_grad])
n2 = copy.deepcopy(net)
print(n2.b0.lin.weight is net.b0.lin.weight, torch.equal(n2.b0.lin.weight, net.b0.lin.weight))
n3 = pickle.loads(pickle.dumps(nn.Sequential(net[2])))
print(type(n3).__name__, torch.equal(n3[0].weight, net[2].weight))
buf = io.BytesIO()
torch.save(net[2], buf)
buf.seek(0)
n4 = torch.load(buf, weights_only=False)
print(torch.equal(n4(torch.ones(1, 2)), net[2](torch.ones(1, 2))))
net.float()
print(net[2].weight.dtype, net.double()[2].weight.dtype, net.to(torch.float32).b0.lin.bias.dtype)
net.eval()
print(net.training, net.b0.training, net.train().b0.training)
del net[1]
print(len(net), list(net._modules.keys()))
md = nn.ModuleDict({"a": nn.Linear(1, 1)})
md.update({"b": nn.Tanh()})
ml = nn.ModuleList([nn.Linear(1, 1)]).extend([nn.ReLU(), nn.ReLU()])
ml.insert(0, nn.Identity())
print(list(md.keys()), len(ml), type(ml[0]).__name__, "a" in md, md.pop("a").__class__.__name__)
print(nn.Flatten(0)(torch.ones(2, 3)).shape, nn.Unflatten(1, (2, 2))(torch.ones(3, 4)).shape, nn.Identity(54)(torch.ones(1)))
