# A word-level GRU language model as in the word_language_model example: encoder/decoder
# weight tying (decoder.weight = encoder.weight), init_weights with uniform +-0.1 (NumPy),
# batchify into columns, get_batch with bptt, repackage_hidden, perplexity evaluation
import math
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(1201)
V, H = 10, 8
corpus = torch.from_numpy(np.tile(np.array([1, 2, 3, 4, 5, 2, 3, 6, 7, 8, 9, 0]), 6))


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[: nbatch * bsz].view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt=6):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


def repackage_hidden(h):
    return h.detach() if isinstance(h, torch.Tensor) else tuple(repackage_hidden(v) for v in h)


class RNNModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Embedding(V, H)
        self.rnn = nn.GRU(H, H, 1)
        self.decoder = nn.Linear(H, V)
        self.decoder.weight = self.encoder.weight
        self.init_weights()

    def init_weights(self):
        with torch.no_grad():
            self.encoder.weight.copy_(torch.from_numpy(rng.uniform(-0.1, 0.1, (V, H))))
            self.decoder.bias.zero_()
            for n, q in self.rnn.named_parameters():
                q.copy_(torch.from_numpy(rng.uniform(-0.3, 0.3, tuple(q.shape))))

    def forward(self, x, hidden):
        output, hidden = self.rnn(self.encoder(x), hidden)
        return self.decoder(output).view(-1, V), hidden


model = RNNModel()
print(model.decoder.weight is model.encoder.weight, len(list(model.parameters())))
train = batchify(corpus, 4)
crit = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=2.0)
for epoch in range(4):
    model.train()
    hidden = torch.zeros(1, 4, H)
    total = 0.0
    for i in range(0, train.size(0) - 1, 6):
        data, targets = get_batch(train, i)
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = crit(output, targets)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} loss {total / 3:.5f} ppl {math.exp(total / 3):.4f}")
print(model.encoder.weight.grad.abs().sum().item() > 0, train.shape)
