# Printing optimizers with their full default option lists, and param_groups keys
import torch

p = [torch.nn.Parameter(torch.zeros(2))]
for opt in [torch.optim.SGD(p, lr=0.1), torch.optim.Adam(p), torch.optim.AdamW(p, lr=1e-3, amsgrad=True),
            torch.optim.RMSprop(p), torch.optim.Adagrad(p), torch.optim.Adadelta(p), torch.optim.Adamax(p),
            torch.optim.NAdam(p), torch.optim.RAdam(p), torch.optim.ASGD(p), torch.optim.Rprop(p), torch.optim.LBFGS(p)]:
    print(opt)
    print(sorted(opt.param_groups[0].keys()))
