# nn.init helpers: calculate_gain for all nonlinearities, fan computations, constant/dirac/eye/zeros/ones checks
import torch
import torch.nn as nn

for nl in ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu"]:
    print(nl, nn.init.calculate_gain(nl))
print(nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("leaky_relu"))
w = torch.empty(4, 3, 5, 5)
print(nn.init._calculate_fan_in_and_fan_out(w), nn.init._calculate_correct_fan(w, "fan_out"))
d = nn.init.dirac_(torch.empty(2, 2, 3))
print(d)
print(nn.init.eye_(torch.empty(2, 3)), nn.init.zeros_(torch.empty(2)), nn.init.ones_(torch.empty(1, 2)))
print(nn.init.constant_(torch.empty(2), 0.3), nn.init.uniform_(torch.empty(3), 1.0, 1.0))
try:
    nn.init.calculate_gain("foo")
except ValueError as e:
    print("ValueError:", e)
try:
    nn.init.kaiming_uniform_(torch.empty(3))
except ValueError as e:
    print("ValueError:", e)
lin = nn.Linear(300, 200)
bound = 1 / 300 ** 0.5
print(bool(lin.weight.abs().max() <= bound), bool(lin.bias.abs().max() <= bound), lin.weight.shape)
