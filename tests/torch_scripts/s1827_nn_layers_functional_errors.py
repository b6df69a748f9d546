# layer argument checks PyTorch makes at construction and call time (messages compared)
import torch
import torch.nn as nn


def show(f):
    try:
        f()
        print("ok")
    except (ValueError, RuntimeError, TypeError, AssertionError, IndexError) as e:
        print(type(e).__name__, "|", str(e)[:82])  # (tapegrad may add context after)


show(lambda: nn.Conv2d(3, 8, 3, groups=2))
show(lambda: nn.Conv2d(4, 6, 3, groups=4))
show(lambda: nn.Conv2d(3, 8, 3, padding="same", stride=2))
show(lambda: nn.Conv2d(3, 8, 3, padding="valid")(torch.ones(1, 3, 5, 5)).shape)
# (its message prints a set of the modes, whose order follows the string hashes of the
# process and of the .pyc that built it: the part before the set is compared)
try:
    nn.Conv2d(3, 8, 3, padding_mode="zeroes")
except ValueError as e:
    head, rest = str(e).split("{")
    print("ValueError |", head, sorted(m.strip(" '") for m in rest.split("}")[0].split(",")))
show(lambda: nn.Linear(2, 3)(torch.ones(2)).shape)
show(lambda: nn.Dropout(1.5))
show(lambda: nn.MultiheadAttention(10, 3))
show(lambda: nn.LSTM(3, 4, dropout=0.5, num_layers=1))
show(lambda: nn.LSTM(3, 4, proj_size=4))
show(lambda: nn.GRU(3, 4)(torch.ones(2, 5)).__class__)
show(lambda: nn.TransformerEncoderLayer(10, 3))
show(lambda: nn.Embedding(5, 2, padding_idx=7))
show(lambda: nn.BatchNorm1d(3)(torch.ones(1, 3)))
show(lambda: nn.BatchNorm1d(3).eval()(torch.ones(1, 3)).shape)
show(lambda: nn.LayerNorm(4)(torch.ones(2, 3)))
show(lambda: nn.GroupNorm(3, 4))
show(lambda: nn.Upsample(size=3, scale_factor=2)(torch.ones(1, 1, 2)))
show(lambda: nn.MaxPool2d(3, padding=2))
show(lambda: nn.MaxPool2d(3, padding=2)(torch.ones(1, 1, 5, 5)))
show(lambda: nn.AvgPool2d(2)(torch.ones(1, 1, 1, 1)))
show(lambda: nn.PixelShuffle(2)(torch.ones(1, 3, 2, 2)))
show(lambda: nn.Unflatten(1, (2, 2))(torch.ones(2, 5)))
show(lambda: nn.Softmax()(torch.ones(2, 2)).shape)
show(lambda: nn.NLLLoss()(torch.ones(2, 3), torch.tensor([0, 3])))
show(lambda: nn.BCELoss()(torch.tensor([1.5]), torch.tensor([1.0])))
show(lambda: nn.Bilinear(2, 3, 4)(torch.ones(1, 2), torch.ones(1, 2)))
show(lambda: nn.ConvTranspose2d(2, 2, 3, stride=2, output_padding=2))
