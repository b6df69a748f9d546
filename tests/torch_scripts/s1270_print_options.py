# set_printoptions precision, sci_mode, threshold/edgeitems, linewidth; reset with profile
import torch

x = torch.tensor([1.123456789, 2.5, 300.0])
torch.set_printoptions(precision=2)
print(x)
torch.set_printoptions(sci_mode=True)
print(x)
torch.set_printoptions(sci_mode=False, precision=6)
print(x)
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(20.0))
torch.set_printoptions(profile="default")
print(torch.arange(20.0))
print(x)
