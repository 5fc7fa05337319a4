-- CreateTable
CREATE TABLE "SignInThrottle" (
    "key" TEXT NOT NULL,
    "windowStartMs" BIGINT NOT NULL,
    "attempts" INTEGER NOT NULL,

    CONSTRAINT "SignInThrottle_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "SignInThrottle_windowStartMs_idx" ON "SignInThrottle"("windowStartMs");
