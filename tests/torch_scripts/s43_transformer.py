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

    def __init__(self, ntoken: int, d_model: int, nhead: int, d_hid: int, nlayers: int, dropout: float = 0.5):
        super().__init__()
        self.model_type = 'Transformer'
        self.pos_encoder = PositionalEncoding(d_model, dropout)
        encoder_layers = TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = TransformerEncoder(encoder_layers, nlayers, enable_nested_tensor=False)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)
        self.init_weights()

    def init_weights(self) -> None:
        initrange = 0.1
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.linear.bias.data.zero_()
        self.linear.weight.data.uniform_(-initrange, initrange)

    def forward(self, src: Tensor, src_mask: Tensor = None) -> Tensor:
        src = self.embedding(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        if src_mask is None:
            src_mask = nn.Transformer.generate_square_subsequent_mask(len(src))
        output = self.transformer_encoder(src, src_mask)
        output = self.linear(output)
        return output


pe = PositionalEncoding(8, dropout=0.0, max_len=6)
print(pe.pe.shape, [n for n, _ in pe.named_buffers()], pe.pe[:3, 0].numpy().round(4))
print(nn.Transformer.generate_square_subsequent_mask(4))
mask = torch.triu(torch.ones(3, 3) * float('-inf'), diagonal=1)
print(mask)
torch.manual_seed(0)
model = TransformerModel(ntoken=11, d_model=8, nhead=2, d_hid=16, nlayers=2, dropout=0.2)
print(sum(p.numel() for p in model.parameters()), len(list(model.parameters())))
print([n for n, _ in model.named_parameters()][:8])
with torch.no_grad():
    for k, (name, p) in enumerate(model.named_parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.7 + k).reshape(p.shape) * 0.2)
model.eval()
src = torch.tensor([[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]])
out = model(src)
print(out.shape, out[0, 0].detach().numpy().round(5))
print(out[-1, 1].detach().numpy().round(5))
model.train()
model.pos_encoder.dropout.p = 0.0
for layer in model.transformer_encoder.layers:
    layer.dropout.p = layer.dropout1.p = layer.dropout2.p = 0.0
    layer.self_attn.dropout = 0.0
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
targets = torch.tensor([[2, 3], [4, 5], [6, 7], [8, 9], [10, 0]])
for step in range(3):
    output = model(src)
    loss = criterion(output.view(-1, 11), targets.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    optimizer.step()
    print(step, round(loss.item(), 6), round(math.exp(loss.item()), 4))
