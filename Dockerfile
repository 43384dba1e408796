# Conclave on Discord. Build: docker build -t conclave .
# Run:   docker run -d --name conclave --restart unless-stopped \
#          -e DISCORD_TOKEN=... -v conclave-data:/data conclave
# Back up while it runs: docker exec conclave python -m store backup /data/conclave.db /data/backup.db
# Web pages (README, Web pages): add -e CONCLAVE_WEB=0.0.0.0:8080 -e CONCLAVE_PUBLIC_URL=https://... -p 8080:8080
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CONCLAVE_DB=/data/conclave.db

# A fixed uid so a volume's ownership stays the same across rebuilds.
RUN groupadd --system --gid 10001 conclave \
    && useradd --system --uid 10001 --gid conclave --home-dir /app --shell /usr/sbin/nologin conclave \
    && mkdir -p /data \
    && chown conclave:conclave /data

WORKDIR /app

# Dependencies first, so a code change does not reinstall them.
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY --chown=root:root . .
# The local table (no DISCORD_TOKEN, run with -it) saves posted images under out/.
RUN mkdir -p out && chown conclave:conclave out

USER conclave
# The SQLite file (with its -wal and -shm companions) lives on the volume, never in the image.
VOLUME ["/data"]
EXPOSE 8080

# With CONCLAVE_WEB set, /healthz must answer (the event loop and the store); without it, healthy.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["python", "-m", "web.health"]

CMD ["python", "bot.py"]
