"""The model suite exported with torch.onnx: small modules built from torch.nn."""

from __future__ import annotations

import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 16), nn.GELU(), nn.Linear(16, 4)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log_softmax(self.layers(x), dim=-1)


class CNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, stride=2, padding=1),
            nn.BatchNorm2d(16),
            nn.SiLU(),
            nn.AvgPool2d(2),
            nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(16, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(torch.flatten(self.features(x), 1))


class Embedder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embedding = nn.Embedding(50, 16)
        self.norm = nn.LayerNorm(16)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.norm(self.embedding(tokens)).mean(dim=1)


class Attention(nn.Module):
    """A transformer block: self-attention written out, residuals, layer norms, an MLP."""

    def __init__(self, dim: int = 16, heads: int = 2) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, seq, dim = x.shape
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        split = lambda t: t.reshape(batch, seq, self.heads, dim // self.heads).transpose(1, 2)
        q, k, v = split(q), split(k), split(v)
        weights = torch.softmax(q @ k.transpose(-2, -1) / (dim // self.heads) ** 0.5, dim=-1)
        context = (weights @ v).transpose(1, 2).reshape(batch, seq, dim)
        x = x + self.out(context)
        return x + self.mlp(self.norm2(x))


class Recurrent(nn.Module):
    def __init__(self, cell: str, layers: int = 1, bidirectional: bool = False) -> None:
        super().__init__()
        kind = nn.LSTM if cell == "lstm" else nn.GRU
        self.rnn = kind(
            8, 12, num_layers=layers, bidirectional=bidirectional, batch_first=layers == 1
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.rnn(x)[0]


def suite() -> dict[str, tuple[nn.Module, tuple[torch.Tensor, ...]]]:
    """Each model (in eval mode) with an example input."""
    torch.manual_seed(0)
    models = {
        "mlp": (MLP(), (torch.randn(4, 8),)),
        "cnn": (CNN(), (torch.randn(2, 3, 16, 16),)),
        "embedding": (Embedder(), (torch.randint(0, 50, (3, 7)),)),
        "attention": (Attention(), (torch.randn(2, 5, 16),)),
        "lstm": (Recurrent("lstm"), (torch.randn(2, 5, 8),)),
        "gru": (Recurrent("gru"), (torch.randn(2, 5, 8),)),
        "lstm_deep": (Recurrent("lstm", 2, True), (torch.randn(5, 2, 8),)),
        "gru_deep": (Recurrent("gru", 2, True), (torch.randn(5, 2, 8),)),
    }
    for module, _ in models.values():
        module.eval()
    return models
