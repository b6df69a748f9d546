# Module introspection: get_submodule, get_parameter, get_buffer, set_submodule, named_modules(remove_duplicate), apply, modules order
import torch
import torch.nn as nn

net = nn.Sequential()
net.add_module("enc", nn.Sequential(nn.Linear(2, 3), nn.ReLU()))
shared = nn.Linear(3, 3)
net.add_module("a", shared)
net.add_module("b", shared)
net.enc.register_buffer("scale", torch.tensor(2.0))
print(net.get_submodule("enc.0"), net.get_parameter("enc.0.bias").shape, net.get_buffer("enc.scale"))
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_modules(remove_duplicate=False)])
print([n for n, _ in net.named_parameters(remove_duplicate=False)][-4:], len(list(net.parameters())))
net.set_submodule("enc.1", nn.Tanh())
print(net.enc)
try:
    net.get_submodule("enc.5")
except AttributeError as e:
    print("AttributeError:", e)
names = []
net.apply(lambda m: names.append(type(m).__name__))
print(names)
print([type(m).__name__ for m in net.children()], len(net), net[-1] is shared)
print(net.enc.training, net.eval().enc.training, net.train(False).training)
