# The "Language modeling with nn.Transformer" tutorial pieces: PositionalEncoding with a buffer,
# generate_square_subsequent_mask, TransformerEncoder in eval mode, batchify/get_batch
import math
import torch
from torch import nn, Tensor
from torch.nn import TransformerEncoder, TransformerEncoderLayer


class PositionalEncoding(nn.Module):
    def __init__(self, d_model: int, dropout: float = 0.1, max_len: int = 5000):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer('pe', pe)

    def forward(self, x: Tensor) -> Tensor:
        x = x + self.pe[:x.size(0)]
        return self.dropout(x)


class TransformerModel(nn.Module):
    def __init__(self, ntoken, d_model, nhead, d_hid, nlayers, dropout=0.5):
        super().__init__()
        self.model_type = 'Transformer'
        self.pos_encoder = PositionalEncoding(d_model, dropout, max_len=64)
        encoder_layers = TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = TransformerEncoder(encoder_layers, nlayers, enable_nested_tensor=False)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)

    def forward(self, src, src_mask=None):
        src = self.embedding(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, src_mask)
        return self.linear(output)


def batchify(data, bsz):
    seq_len = data.size(0) // bsz
    data = data[:seq_len * bsz]
    return data.view(bsz, seq_len).t().contiguous()


def get_batch(source, i, bptt=5):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].reshape(-1)
    return data, target


stream = torch.tensor([(i * 7 + 3) % 11 for i in range(46)])
train_data = batchify(stream, 4)
print(train_data.shape, train_data[:2].tolist())
model = TransformerModel(11, 8, 2, 16, 2, dropout=0.2)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.2 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.37 + i).view_as(p))
print(model.pos_encoder.pe.shape, model.pos_encoder.pe[1, 0, :4].round(decimals=4))
mask = nn.Transformer.generate_square_subsequent_mask(5)
print(mask)
model.eval()
criterion = nn.CrossEntropyLoss()
total = 0.0
with torch.no_grad():
    for batch, i in enumerate(range(0, train_data.size(0) - 1, 5)):
        data, targets = get_batch(train_data, i)
        seq_len = data.size(0)
        output = model(data, mask[:seq_len, :seq_len])
        loss = criterion(output.view(-1, 11), targets)
        total += seq_len * loss.item()
        print(batch, data.shape, output.shape, f"{loss.item():.5f}")
print(f"ppl {math.exp(total / (len(train_data) - 1)):8.4f}")
print(sum(p.numel() for p in model.parameters()), len(model.state_dict()))
